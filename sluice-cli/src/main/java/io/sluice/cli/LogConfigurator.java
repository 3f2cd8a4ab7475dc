package io.sluice.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * The {@code sluice} command's logging, set up in code (found by Logback through {@code
 * META-INF/services}): one line per event on standard error, {@code INFO} unless {@code
 * SLUICE_LOG_LEVEL} (a system property or an environment variable) says otherwise, one JSON object
 * a line when {@code SLUICE_LOG_FORMAT} (or {@code --log-format}) is {@code json}, and the chatty
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
    Encoder<ILoggingEvent> encoder;
    if (json()) {
      encoder = new JsonLogEncoder();
    } else {
      PatternLayoutEncoder pattern = new MaskingEncoder();
      pattern.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{24} - %msg%n");
      encoder = pattern;
    }
    encoder.setContext(context);
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
    return setting(LEVEL);
  }

  /** The setting that chooses the level: a system property or an environment variable. */
  static final String LEVEL = "SLUICE_LOG_LEVEL";

  /**
   * The setting that chooses the format, {@code text} (the default) or {@code json}: a system
   * property ({@code --log-format} sets it) or an environment variable.
   */
  static final String FORMAT = "SLUICE_LOG_FORMAT";

  /** Whether the log is one JSON object a line ({@link Main} refused a format not known). */
  static boolean json() {
    return "json".equalsIgnoreCase(setting(FORMAT));
  }

  /**
   * Takes the {@code --log-format} of {@code args} (the command's, read before anything logs: the
   * log is set up by the first logger made) into {@link #FORMAT}; the problem with it or with
   * {@code SLUICE_LOG_FORMAT}, or null.
   */
  static String applyFormat(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--")) {
        break;
      }
      String value = null;
      if (args[i].equals("--log-format") && i + 1 < args.length) {
        value = args[i + 1];
      } else if (args[i].startsWith("--log-format=")) {
        value = args[i].substring("--log-format=".length());
      }
      if (value != null) {
        System.setProperty(FORMAT, value);
      }
    }
    String format = setting(FORMAT);
    if (format == null || format.equalsIgnoreCase("text") || format.equalsIgnoreCase("json")) {
      return null;
    }
    return "--log-format (or " + FORMAT + ") must be text or json, was '" + format + "'";
  }

  private static String setting(String name) {
    String value = System.getProperty(name);
    return value != null ? value : System.getenv(name);
  }
}
