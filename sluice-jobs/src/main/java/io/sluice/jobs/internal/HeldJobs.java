package io.sluice.jobs.internal;

import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.NodeLease;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs a node claimed and has not finished, each waiting for a running slot, running, or
 * dropped: a job claimed under a lease the node lost is never started, and one still waiting for
 * its slot when the loss is seen is dropped at once, its thread woken, so that it leaves room for
 * jobs claimed under the new lease.
 */
final class HeldJobs {

  private static final int WAITING = 0;
  private static final int RUNNING = 1;
  private static final int DROPPED = 2;

  /** One claimed job and the virtual thread that runs it once it has a slot. */
  static final class Held {
    final ClaimedJob job;
    private final AtomicInteger state = new AtomicInteger(WAITING);
    private volatile Thread thread;

    private Held(ClaimedJob job) {
      this.job = job;
    }

    /** Notes the thread that will run the job, so that dropping it wakes that thread. */
    void enter() {
      thread = Thread.currentThread();
    }

    /** Whether the job was dropped (it must not start). */
    boolean dropped() {
      return state.get() == DROPPED;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(HeldJobs.class);

  private final Set<Held> jobs = ConcurrentHashMap.newKeySet();
  private final JobMetrics metrics;
  private final String node;

  HeldJobs(JobMetrics metrics, String node) {
    this.metrics = metrics;
    this.node = node;
  }

  /** Holds {@code job}, waiting for a slot. */
  Held add(ClaimedJob job) {
    Held held = new Held(job);
    jobs.add(held);
    return held;
  }

  /** No longer holds {@code held} (it ended, was dropped or handed back). */
  void remove(Held held) {
    jobs.remove(held);
  }

  /** Starts {@code held}: false when it was dropped first. */
  boolean start(Held held) {
    return held.state.compareAndSet(WAITING, RUNNING);
  }

  /**
   * Drops every job claimed under {@code lease}, lost for the reason {@code why}, that has not
   * started, interrupting the thread that waits for a slot for it: that thread ends without running
   * it and hands it back (refused, as expected, when another node reclaimed it already). Counted,
   * and told in one warning.
   */
  void drop(NodeLease lease, String why) {
    int dropped = 0;
    for (Held held : jobs) {
      if (held.job.lease().equals(lease) && held.state.compareAndSet(WAITING, DROPPED)) {
        dropped++;
        Thread thread = held.thread;
        if (thread != null) {
          thread.interrupt();
        }
      }
    }
    if (dropped > 0) {
      metrics.dropped.increment(dropped);
      LOG.warn(
          "Node {} drops the {} job(s) it claimed under its lease {} and had not started: the"
              + " lease is lost ({}), so they run elsewhere. Handlers still running see"
              + " JobContext.holdsJob() false",
          node,
          dropped,
          lease,
          why);
    }
  }
}
