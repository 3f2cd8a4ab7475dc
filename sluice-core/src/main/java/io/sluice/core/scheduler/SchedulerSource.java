package io.sluice.core.scheduler;

import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import java.time.Duration;
import java.time.ZoneId;

/**
 * STUB, being written: fires messages on a schedule, at a fixed frequency or on a cron
 * expression, using the flow's timer and clock. A firing that finds the previous one still in
 * the flow is skipped and counted.
 */
public final class SchedulerSource implements Source {

  private final String description;

  private SchedulerSource(String description) {
    this.description = description;
  }

  /** Fires every {@code frequency}, the first time after {@code startDelay}. */
  public static SchedulerSource fixedFrequency(Duration frequency, Duration startDelay) {
    return new SchedulerSource("every " + frequency + " after " + startDelay);
  }

  /**
   * Fires on a Quartz-style cron expression (seconds first) in {@code zone}; an invalid
   * expression is a {@link io.sluice.core.ConfigurationException} naming {@code path}.
   */
  public static SchedulerSource cron(String path, String expression, ZoneId zone) {
    return new SchedulerSource("cron " + expression + " in " + zone + " at " + path);
  }

  @Override
  public void start(SourceContext context) {
    throw new UnsupportedOperationException("scheduler not written yet: " + description);
  }

  @Override
  public void stop() {}
}
