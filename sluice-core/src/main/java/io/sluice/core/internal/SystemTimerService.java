package io.sluice.core.internal;

import io.sluice.core.spi.TimerService;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The real timer: one platform thread keeps time and starts each due task on a virtual thread, so a
 * task that blocks (a source waiting for room in its flow) never delays the others.
 */
public final class SystemTimerService implements TimerService, AutoCloseable {

  private final Clock clock;
  private final ScheduledThreadPoolExecutor ticker;
  private final ThreadFactory tasks = Thread.ofVirtual().name("sluice-timer-task-", 0).factory();

  /** A timer on the system clock. */
  public SystemTimerService() {
    this(Clock.systemDefaultZone());
  }

  /** A timer whose {@link #clock()} is this one (delays still run in real time). */
  public SystemTimerService(Clock clock) {
    this.clock = clock;
    this.ticker = new ScheduledThreadPoolExecutor(1, ProfiledExecutor.threads("sluice-timer"));
    ticker.setRemoveOnCancelPolicy(true);
    ticker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> future =
        ticker.schedule(
            () -> tasks.newThread(task).start(),
            Math.max(0, delay.toNanos()),
            TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
