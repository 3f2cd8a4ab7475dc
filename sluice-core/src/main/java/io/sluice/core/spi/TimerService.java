package io.sluice.core.spi;

import java.time.Clock;
import java.time.Duration;

/**
 * Runs tasks after a delay. The real one fires on its own thread and runs each task on a virtual
 * thread; the test kit's manual one runs what is due when the test advances its clock.
 */
public interface TimerService {

  /** The clock delays are measured against. */
  Clock clock();

  /** Runs {@code task} once after {@code delay}; the handle cancels it. */
  Cancellable schedule(Duration delay, Runnable task);

  /** A scheduled task that can still be cancelled. */
  @FunctionalInterface
  interface Cancellable {
    /** Cancels the task if it has not started; does nothing otherwise. */
    void cancel();
  }
}
