package io.sluice.batch.internal;

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

  StopPolling(BlockStore store, long instance, String job) {
    this.store = store;
    this.instance = instance;
    this.job = job;
  }

  /** Whether it is time to look again (at most one caller in each period is told so). */
  boolean due() {
    long now = System.nanoTime();
    long last = stopPolled.get();
    return now - last >= STOP_POLL_NANOS && stopPolled.compareAndSet(last, now);
  }

  /** Whether the store holds a stop for the instance (logged when it does). */
  boolean requested() {
    if (!store.stopRequested(instance)) {
      return false;
    }
    LOG.info("Batch job {} instance {}: stop asked; blocks in flight finish", job, instance);
    return true;
  }
}
