package io.sluice.core;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** The events one logger writes while a test runs; close it to detach. */
public final class LogCapture implements AutoCloseable {

  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(Class<?> owner) {
    this.logger = (Logger) LoggerFactory.getLogger(owner);
    appender.start();
    logger.addAppender(appender);
  }

  /** Captures what {@code owner}'s logger writes from now on. */
  public static LogCapture of(Class<?> owner) {
    return new LogCapture(owner);
  }

  /** The formatted messages logged at {@code level}, in order. */
  public List<String> at(Level level) {
    synchronized (appender) {
      return appender.list.stream()
          .filter(e -> e.getLevel() == level)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  /** The events logged at {@code level}, in order. */
  public List<ILoggingEvent> events(Level level) {
    synchronized (appender) {
      return appender.list.stream().filter(e -> e.getLevel() == level).toList();
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
  }
}
