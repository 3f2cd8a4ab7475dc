package io.sluice.jobs.internal;

import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A node's outcomes of finished jobs, queued and written back in bulk on a thread of their own. */
final class OutcomeWriter {

  private static final Logger LOG = LoggerFactory.getLogger(JobNode.class);

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Set<String> types;
  private final Clock clock;
  private final JobMetrics metrics;
  private final LeaseKeeper keeper;
  private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger outcomeCount = new AtomicInteger();
  private volatile long firstOutcomeNanos;
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private volatile boolean writesFailing;

  /** Outcomes being written, or kept after a failed write; the writer thread's alone. */
  private final List<Outcome> pending = new ArrayList<>();

  private final ExecutorService writer;
  private final RepeatedFailureLog writeFailures;

  OutcomeWriter(
      JobStore store,
      JobExecutorConfig config,
      Set<String> types,
      JobMetrics metrics,
      LeaseKeeper keeper) {
    this.store = store;
    this.config = config;
    this.types = types;
    this.clock = store.clock();
    this.metrics = metrics;
    this.keeper = keeper;
    this.writeFailures =
        new RepeatedFailureLog(LOG, "Node " + config.nodeId() + " writing outcomes", clock);
    // Outcomes are written on a thread of their own, so that a node's claims and completions
    // overlap (on PostgreSQL, two backends) instead of taking turns on the acquisition thread.
    this.writer =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform()
                .name("sluice-jobs-complete-" + config.nodeId())
                .daemon(true)
                .factory());
  }

  /** How many outcomes wait in the queue. */
  int count() {
    return outcomeCount.get();
  }

  /** When the oldest outcome waiting in the queue came ({@link System#nanoTime()}). */
  long firstNanos() {
    return firstOutcomeNanos;
  }

  /** Whether the last write failed (its outcomes are kept for the next). */
  boolean failing() {
    return writesFailing;
  }

  /** Stops the writer thread once what it was given is written, waiting up to {@code timeout}. */
  void stop(Duration timeout) throws InterruptedException {
    writer.shutdown();
    writer.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the writer thread now. */
  void stopNow() {
    writer.shutdownNow();
  }

  /**
   * Queues an outcome for the writer thread, noting when the oldest waiting one came; true when it
   * is that oldest one (the loop must set its timer for it).
   */
  boolean offer(Outcome outcome) {
    // Counted before it is queued, so the writer never takes one the count does not hold yet (the
    // count would go below zero and a later outcome would wait unseen).
    boolean first = outcomeCount.getAndIncrement() == 0;
    if (first) {
      firstOutcomeNanos = System.nanoTime();
    }
    outcomes.add(outcome);
    return first;
  }

  /** Has the writer thread write the outcomes back, unless it is about to already. */
  void requestFlush() {
    if (!flushQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      writer.execute(
          () -> {
            flushQueued.set(false);
            drain();
            writePending();
          });
    } catch (RejectedExecutionException e) {
      flushQueued.set(false); // stopping: close() writes what is left
    }
  }

  /**
   * Writes the pending outcomes (on the writer thread); a failure keeps them for the next write and
   * is told once, and so is the recovery.
   */
  void writePending() {
    try {
      write();
      writesFailing = false;
      writeFailures.recovered();
    } catch (RuntimeException e) {
      writesFailing = true;
      writeFailures.failed(
          "Node {} cannot write its jobs' outcomes ({}); it keeps them and tries again",
          config.nodeId(),
          e.getMessage());
    }
  }

  /**
   * On the writer thread, which owns the outcomes being written: claims {@code room} jobs and
   * completes this lease's finished ones in the same round trip, then writes the other outcomes
   * (failures, hand-backs, an earlier lease's completions). The claimed jobs are returned even when
   * those writes fail: they are this node's now.
   */
  List<ClaimedJob> claimCarrying(int room) {
    drain();
    NodeLease lease = keeper.lease();
    List<Outcome> carried = byLease(Outcome.Completed.class).getOrDefault(lease, List.of());
    JobStore.ClaimResult result = store.claim(lease, types, room, ids(carried));
    if (!carried.isEmpty()) {
      settle(lease, carried, result.completed());
      pending.removeAll(carried);
    }
    writePending();
    return result.claimed();
  }

  /** Runs {@code work} on the writer thread and waits for it (uninterruptibly: it may claim). */
  <T> T onWriter(Supplier<T> work) {
    CompletableFuture<T> result;
    try {
      result = CompletableFuture.supplyAsync(work, writer);
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("node " + config.nodeId() + " is stopping", e);
    }
    try {
      return result.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  /** Moves the queued outcomes to the writer's pending list. */
  private void drain() {
    for (Outcome outcome = outcomes.poll(); outcome != null; outcome = outcomes.poll()) {
      pending.add(outcome);
      if (outcomeCount.decrementAndGet() > 0) {
        firstOutcomeNanos = System.nanoTime(); // those that came meanwhile wait from now
      }
    }
  }

  /** Writes the outcomes back: completions in one commit per lease; keeps what failed to write. */
  void flush() {
    drain();
    write();
  }

  private void write() {
    if (pending.isEmpty()) {
      return;
    }
    // Each write removes what it wrote, so that after a failure only the rest is written again.
    for (Map.Entry<NodeLease, List<Outcome>> group : byLease(Outcome.Completed.class).entrySet()) {
      complete(group.getKey(), group.getValue());
      pending.removeAll(group.getValue());
    }
    for (Map.Entry<NodeLease, List<Outcome>> group : byLease(Outcome.Released.class).entrySet()) {
      List<Long> ids = ids(group.getValue());
      refused(group.getKey(), ids.size() - store.release(group.getKey(), ids), ids, "hand back");
      pending.removeAll(group.getValue());
    }
    for (Map.Entry<NodeLease, List<Outcome>> group : byLease(Outcome.Dropped.class).entrySet()) {
      // Refused for the jobs reclaimed already; the others wait again at once.
      store.release(group.getKey(), ids(group.getValue()));
      pending.removeAll(group.getValue());
    }
    boolean retries = !pending.isEmpty();
    while (!pending.isEmpty()) {
      failed(pending.getFirst());
      pending.removeFirst();
    }
    if (retries) {
      store.wake(); // the loop sets its timer for the retries' due times
    }
  }

  private Map<NodeLease, List<Outcome>> byLease(Class<? extends Outcome> kind) {
    Map<NodeLease, List<Outcome>> groups = new LinkedHashMap<>();
    for (Outcome outcome : pending) {
      if (kind.isInstance(outcome)) {
        groups.computeIfAbsent(outcome.job().lease(), l -> new ArrayList<>()).add(outcome);
      }
    }
    return groups;
  }

  static List<Long> ids(List<Outcome> outcomes) {
    return outcomes.stream().map(o -> o.job().id()).toList();
  }

  private void complete(NodeLease lease, List<Outcome> completed) {
    settle(lease, completed, store.complete(lease, ids(completed)));
  }

  /** Counts the completions written together and tells of those the lease no longer held. */
  void settle(NodeLease lease, List<Outcome> completed, Set<Long> done) {
    List<Long> ids = ids(completed);
    metrics.completedTogether.record(ids.size());
    if (done.size() < ids.size()) {
      Set<Long> lost = new HashSet<>(ids);
      lost.removeAll(done);
      // Completed in the handler's own transaction: gone already, as it should be.
      completed.stream()
          .filter(o -> o instanceof Outcome.Completed c && c.inTransaction())
          .forEach(o -> lost.remove(o.job().id()));
      refused(lease, lost.size(), lost, "complete");
    }
  }

  private void refused(NodeLease lease, int count, Collection<Long> ids, String what) {
    if (count <= 0) {
      return;
    }
    metrics.fenced.increment(count);
    LOG.warn(
        "Node {} could not {} {} job(s) among {}: its lease {} no longer holds them (it lapsed and"
            + " they were reclaimed); they run again, or ran, elsewhere",
        config.nodeId(),
        what,
        count,
        ids,
        lease);
  }

  private void failed(Outcome outcome) {
    ClaimedJob job = outcome.job();
    switch (outcome) {
      case Outcome.Failed f -> {
        Instant retryAt = clock.instant().plus(config.backoff(job.attempt()));
        switch (store.fail(job.lease(), job.id(), f.error(), retryAt)) {
          case RETRY ->
              LOG.debug("Job {} of type '{}' failed, retried at {}", job.id(), job.type(), retryAt);
          case INCIDENT -> incident(job, f.error());
          case NOT_HELD -> refused(job.lease(), 1, List.of(job.id()), "record the failure of");
        }
      }
      case Outcome.Unreadable u -> {
        if (store.incident(job.lease(), job.id(), u.error())) {
          metrics.incidents.increment();
          LOG.warn(
              "Job {} of type '{}' is an incident at once: {}. The handler was not called and no"
                  + " retry was used; fix or replace the payload, then retry it: sluice jobs retry"
                  + " <config> {} (or JobStore.retry)",
              job.id(),
              job.type(),
              u.error(),
              job.id());
        } else {
          refused(job.lease(), 1, List.of(job.id()), "record the incident of");
        }
      }
      default -> throw new IllegalStateException("not a failure: " + outcome);
    }
  }

  private void incident(ClaimedJob job, String error) {
    metrics.incidents.increment();
    LOG.warn(
        "Job {} of type '{}' is an incident after {} attempt(s): {}. Retry it once the cause is"
            + " fixed: sluice jobs retry <config> {} (or JobStore.retry)",
        job.id(),
        job.type(),
        job.attempt(),
        error,
        job.id());
  }
}
