package io.sluice.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.sluice.core.logging.LogContext;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.Marker;

/**
 * Fills the MDC from {@link LogContext} just before a line is logged: the flow, message id, job id
 * or batch instance of the work the logging thread is on. Logback asks it before every logging
 * call, on the calling thread; it does nothing for a call whose level is off, so a flow that logs
 * nothing pays nothing. It touches only {@link LogContext#KEYS}, and removes them only where it put
 * them.
 */
public final class LogContextFilter extends TurboFilter {

  private static final ThreadLocal<Boolean> FILLED = new ThreadLocal<>();

  /** Made by {@link #install()}, or named in a {@code logback.xml} as a turbo filter. */
  public LogContextFilter() {}

  /** Adds the filter to Logback's context, when Logback is the logging backend. */
  static void install() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
        && context.getTurboFilterList().stream().noneMatch(f -> f instanceof LogContextFilter)) {
      LogContextFilter filter = new LogContextFilter();
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level == null || !level.isGreaterOrEqual(logger.getEffectiveLevel())) {
      return FilterReply.NEUTRAL;
    }
    Map<String, String> entries = LogContext.entries();
    if (entries.isEmpty()) {
      if (FILLED.get() != null) {
        LogContext.KEYS.forEach(MDC::remove);
        FILLED.remove();
      }
      return FilterReply.NEUTRAL;
    }
    for (String key : LogContext.KEYS) {
      String value = entries.get(key);
      if (value == null) {
        MDC.remove(key);
      } else {
        MDC.put(key, value);
      }
    }
    FILLED.set(Boolean.TRUE);
    return FilterReply.NEUTRAL;
  }
}
