package io.sluice.jobs.internal;

import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Claimed jobs started: one virtual thread per job without a key, one per exclusive key's chain.
 */
final class KeyedChains {

  private final JobStore store;
  private final JobExecutorConfig config;
  private final JobMetrics metrics;
  private final HeldJobs holding;
  private final ExecutorService workers;
  private final Workers jobs;
  private final AtomicInteger held;
  private final AtomicInteger slots;
  private final AtomicInteger running;
  private final OutcomeWriter outcomes;

  KeyedChains(
      JobStore store,
      JobExecutorConfig config,
      JobMetrics metrics,
      HeldJobs holding,
      ExecutorService workers,
      Workers jobs,
      AtomicInteger held,
      AtomicInteger slots,
      AtomicInteger running,
      OutcomeWriter outcomes) {
    this.store = store;
    this.config = config;
    this.metrics = metrics;
    this.holding = holding;
    this.workers = workers;
    this.jobs = jobs;
    this.held = held;
    this.slots = slots;
    this.running = running;
    this.outcomes = outcomes;
  }

  /**
   * Starts the claimed jobs: each without an exclusive key on a virtual thread of its own, the jobs
   * of one key on one virtual thread that runs them one after another in due order.
   */
  void start(List<ClaimedJob> claimed) {
    metrics.acquired.increment(claimed.size());
    Map<String, List<HeldJobs.Held>> keys = new LinkedHashMap<>();
    for (ClaimedJob job : claimed) {
      held.incrementAndGet();
      HeldJobs.Held one = holding.add(job);
      if (job.exclusiveKey() == null) {
        launch(List.of(one));
      } else {
        keys.computeIfAbsent(job.exclusiveKey(), k -> new ArrayList<>()).add(one);
      }
    }
    for (List<HeldJobs.Held> chain : keys.values()) {
      chain.sort(DUE_ORDER);
      launch(chain);
    }
  }

  private static final Comparator<HeldJobs.Held> DUE_ORDER =
      Comparator.<HeldJobs.Held, Instant>comparing(h -> h.job.dueAt())
          .thenComparingLong(h -> h.job.id());

  /** Runs {@code chain} (one job, or the jobs of a key in due order) on a virtual thread. */
  private void launch(List<HeldJobs.Held> chain) {
    slots.incrementAndGet();
    try {
      workers.execute(() -> runChain(chain));
    } catch (RejectedExecutionException e) {
      metrics.rejected.increment(chain.size());
      for (HeldJobs.Held one : chain) {
        holding.remove(one);
        held.decrementAndGet();
        outcomes.offer(new Outcome.Released(one.job));
      }
      slots.decrementAndGet();
    }
  }

  private void runChain(List<HeldJobs.Held> chain) {
    boolean first = false;
    try {
      for (int i = 0; i < chain.size(); i++) {
        boolean oldest = jobs.run(chain.get(i));
        if (oldest && i < chain.size() - 1) {
          store.wake(); // the loop sets its timer for this outcome while the key's next runs
        } else {
          first |= oldest;
        }
      }
    } finally {
      // The loop wakes only when this end gives it something to do (a claim's worth of room, an
      // idle slot, outcomes to write), not once per job: a no-op job would cost a context switch.
      int nowSlots = slots.decrementAndGet();
      if (first
          || nowSlots <= config.concurrency() + config.prefetch() - config.claimBatch()
          || nowSlots <= running.get()
          || outcomes.count() >= config.claimBatch()) {
        store.wake();
      }
    }
  }
}
