package io.sluice.batch.internal;

import io.sluice.core.logging.RepeatedFailureLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A run's look in the store for a stop asked by another process, at most every 250 ms. */
final class StopPolling {

  private static final Logger LOG = LoggerFactory.getLogger(BatchRun.class);

  /** How often a run looks in the store for a stop asked by another process. */
  private static final long STOP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  private final BlockStore store;
  private final long instance;
  private final String job;
  private final AtomicLong stopPolled = new AtomicLong(System.nanoTime());

  /** Failed looks: a storage that stays unreachable is told once, then summarised. */
  private final RepeatedFailureLog failures;

  private final boolean shared;

  /**
   * The look of a run of {@code instance} of {@code job}; on a {@code shared} store, an instance
   * another node stopped counts as a stop asked.
   */
  StopPolling(BlockStore store, long instance, String job, boolean shared) {
    this.shared = shared;
    this.store = store;
    this.instance = instance;
    this.job = job;
    this.failures =
        new RepeatedFailureLog(
            LOG,
            "Batch job " + job + " instance " + instance + " looking for a stop request",
            store.clock());
  }

  /** Whether it is time to look again (at most one caller in each period is told so). */
  boolean due() {
    long now = System.nanoTime();
    long last = stopPolled.get();
    return now - last >= STOP_POLL_NANOS && stopPolled.compareAndSet(last, now);
  }

  /**
   * Whether the store holds a stop for the instance (logged when it does). A look the store fails
   * (a pool with no free connection under load, a statement timeout) says no, and the next period
   * looks again: thrown, it would be lost on the mover or the sink thread that happened to look,
   * and the run would wait for ever for the block that thread carried. A storage that is gone fails
   * the run's next write.
   */
  boolean requested() {
    boolean asked;
    try {
      asked = store.stopRequested(instance, shared);
    } catch (RuntimeException e) {
      failures.failed(
          "Batch job {} instance {}: could not look for a stop request ({}); looking again in {}"
              + " ms",
          job,
          instance,
          BatchRun.describe(e),
          TimeUnit.NANOSECONDS.toMillis(STOP_POLL_NANOS));
      return false;
    }
    failures.recovered();
    if (!asked) {
      return false;
    }
    LOG.info("Batch job {} instance {}: stop asked; blocks in flight finish", job, instance);
    return true;
  }
}
