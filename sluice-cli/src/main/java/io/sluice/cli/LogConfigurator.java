package io.sluice.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * The {@code sluice} command's logging, set up in code (found by Logback through {@code
 * META-INF/services}): one line per event on standard error, {@code INFO} unless {@code
 * SLUICE_LOG_LEVEL} (a system property or an environment variable) says otherwise, and the chatty
 * libraries (Micrometer, the schema validator, the connection pool) at {@code WARN}; every secret
 * value of the configuration masked ({@link MaskingEncoder}).
 *
 * <p>It replaces a {@code logback.xml} that said the same: reading it made Logback load its XML
 * configurator, about 250 classes, on every start, which a short command such as {@code sluice jobs
 * create} paid in full. A {@code logback.configurationFile} property, or a {@code logback.xml} or
 * {@code logback-test.xml} on the class path, still configures Logback instead.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {

  /** Made by Logback's service loader. */
  public LogConfigurator() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    ClassLoader loader = LogConfigurator.class.getClassLoader();
    if (System.getProperty("logback.configurationFile") != null
        || loader.getResource("logback-test.xml") != null
        || loader.getResource("logback.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    context.getStatusManager().add(new NopStatusListener());
    PatternLayoutEncoder encoder = new MaskingEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n");
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("STDERR");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(level(), Level.INFO));
    root.addAppender(appender);
    context.getLogger("io.micrometer").setLevel(Level.WARN);
    context.getLogger("com.networknt").setLevel(Level.WARN);
    // the pool's start and stop lines; Sluice logs the store it opened
    context.getLogger("com.zaxxer.hikari").setLevel(Level.WARN);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static String level() {
    String level = System.getProperty("SLUICE_LOG_LEVEL");
    return level != null ? level : System.getenv("SLUICE_LOG_LEVEL");
  }
}
