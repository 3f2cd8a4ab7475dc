package io.sluice.jobs.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.jobs.Acquisition;
import io.sluice.jobs.JobContext;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobHandler;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One executor node: an acquisition thread that claims at most the free room (concurrency +
 * prefetch − jobs held) and writes outcomes back in bulk, a heartbeat thread ({@link LeaseKeeper}),
 * and a virtual thread per held job, which waits for one of {@code concurrency} permits before
 * running its handler. The acquisition thread never runs a job and the pool never refuses one:
 * nothing is claimed that has no room.
 */
public final class JobNode implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JobNode.class);

  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
  private static final int MAX_ERROR_LENGTH = 4000;

  /** How long a finished job's outcome may wait to be written with others'. */
  private static final long ACK_DELAY_NANOS = Duration.ofMillis(50).toNanos();

  /** How much later than the live node before it an idle node claims. */
  static final Duration STAGGER = Duration.ofMillis(2);

  /** The most live nodes before it an idle node waits for. */
  static final int MAX_STAGGER_RANK = 5;

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Map<String, JobHandler> handlers;
  private final Set<String> types;
  private final Clock clock;
  private final JobMetrics metrics;
  private final LeaseKeeper keeper;
  private final Semaphore permits;
  private final AtomicInteger held = new AtomicInteger();

  /**
   * The running slots the held jobs take: one per job without an exclusive key, one per key for the
   * jobs of a key, which run one after another. The room to claim is counted in slots.
   */
  private final AtomicInteger slots = new AtomicInteger();

  private final HeldJobs holding;
  private final AtomicInteger running = new AtomicInteger();
  private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger outcomeCount = new AtomicInteger();
  private volatile long firstOutcomeNanos;
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private volatile boolean writesFailing;

  /** Outcomes being written, or kept after a failed write; the writer thread's alone. */
  private final List<Outcome> pending = new ArrayList<>();

  private final AcquisitionPace pace;
  private boolean staggering;
  private long staggerUntil;
  private final ExecutorService workers;
  private final ScheduledExecutorService heartbeat;
  private final ExecutorService writer;
  private final Thread acquisition;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean stopping;
  private boolean outage;
  private final RepeatedFailureLog acquisitionFailures;
  private final RepeatedFailureLog writeFailures;
  private boolean started;
  private boolean closed;

  /** A node running {@code handlers} (by job type) from {@code store}; not started. */
  public JobNode(
      JobStore store,
      JobExecutorConfig config,
      Map<String, JobHandler> handlers,
      MeterRegistry registry) {
    this.store = store;
    this.config = config;
    this.handlers = Map.copyOf(handlers);
    this.types = Set.copyOf(handlers.keySet());
    this.clock = store.clock();
    this.acquisitionFailures =
        new RepeatedFailureLog(LOG, "Node " + config.nodeId() + " acquiring jobs", clock);
    this.writeFailures =
        new RepeatedFailureLog(LOG, "Node " + config.nodeId() + " writing outcomes", clock);
    this.metrics = new JobMetrics(registry, config.nodeId());
    metrics.held(held);
    this.holding = new HeldJobs(metrics, config.nodeId());
    this.keeper = new LeaseKeeper(store, config, types, metrics, holding::drop);
    this.permits = new Semaphore(config.concurrency());
    this.pace = new AcquisitionPace(config, JobNode::jittered);
    // Virtual threads: handlers mostly wait (I/O, other services); a prefetched job parks on its
    // permit for free. The concurrency limit is the semaphore, not a pool size.
    this.workers =
        Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sluice-job-" + config.nodeId() + "-", 0).factory());
    // Platform threads for the loop and heartbeat: they call the SQLite driver (native code).
    this.heartbeat =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform()
                .name("sluice-jobs-heartbeat-" + config.nodeId())
                .daemon(true)
                .factory());
    // Outcomes are written on a thread of their own, so that a node's claims and completions
    // overlap (on PostgreSQL, two backends) instead of taking turns on the acquisition thread.
    this.writer =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform()
                .name("sluice-jobs-complete-" + config.nodeId())
                .daemon(true)
                .factory());
    this.acquisition =
        Thread.ofPlatform()
            .name("sluice-jobs-acquire-" + config.nodeId())
            .daemon(true)
            .unstarted(this::acquire);
  }

  /** Registers the node (failing when the database cannot be reached) and starts its threads. */
  public synchronized void start() {
    if (started || closed) {
      throw new IllegalStateException(
          "The job executor of node "
              + config.nodeId()
              + (closed ? " was closed; build a new one" : " runs already"));
    }
    keeper.register();
    started = true;
    long beat = config.heartbeatInterval().toMillis();
    heartbeat.scheduleWithFixedDelay(keeper::beat, 0, beat, TimeUnit.MILLISECONDS);
    acquisition.start();
    LOG.info(
        "Job executor node {} started with lease {}: handlers {}, concurrency {} on virtual"
            + " threads, prefetch {}, lease {} renewed every {}, acquisition {}, {}, retry"
            + " backoff {} ×{} up to {}",
        config.nodeId(),
        keeper.lease(),
        types,
        config.concurrency(),
        config.prefetch(),
        config.leaseDuration(),
        config.heartbeatInterval(),
        acquisitionSettings(),
        config.idleWaits()
            ? "idle wait "
                + config.idleWait(0)
                + " ×"
                + config.idleWaitFactor()
                + " up to "
                + config.maxIdleWait()
            : "safety poll " + config.safetyPoll() + " (±20%)",
        config.retryBackoff(),
        config.backoffFactor(),
        config.maxRetryBackoff());
  }

  private String acquisitionSettings() {
    if (config.acquisition() != Acquisition.OPTIMISTIC) {
      return config.acquisition().key();
    }
    return config.backsOff()
        ? "optimistic ("
            + config.jobsPerCycle()
            + " to "
            + config.maxJobsPerCycle()
            + " candidates, backoff "
            + config.acquisitionBackoff()
            + " ×"
            + config.acquisitionBackoffFactor()
            + " up to "
            + config.maxAcquisitionBackoff()
            + ", a level lower after "
            + config.acquisitionBackoffDecreaseThreshold()
            + " clean cycles)"
        : "optimistic (" + config.jobsPerCycle() + " candidates, no backoff)";
  }

  /** Whether the node holds its lease, so that it takes jobs. */
  public boolean holdsLease() {
    return keeper.held();
  }

  /** The node's current lease, or null before it started. */
  public NodeLease lease() {
    return keeper.lease();
  }

  private void acquire() {
    Duration backoff = FIRST_BACKOFF;
    while (!stopping) {
      long seen = store.changes();
      Duration wait;
      try {
        wait = acquireOnce();
        outage = false;
        acquisitionFailures.recovered();
        backoff = FIRST_BACKOFF;
      } catch (RuntimeException e) {
        if (!stopping) {
          outage = true;
          acquisitionFailures.failed(
              "Node {} cannot use the job store ({}); acquisition pauses and retries with backoff"
                  + " up to {}",
              config.nodeId(),
              e.getMessage(),
              MAX_BACKOFF);
        }
        wait = backoff;
        backoff =
            backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                ? MAX_BACKOFF
                : backoff.multipliedBy(2);
      }
      if (wait.isZero()) {
        continue;
      }
      try {
        if (outage) {
          // Wake-ups would cut the backoff short: only a stop does.
          stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } else {
          store.awaitChange(seen, wait);
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Writes back outcomes and claims, when either is worth a round trip; returns how long to wait
   * before looking again (zero: at once).
   */
  private Duration acquireOnce() {
    int room = config.concurrency() + config.prefetch() - slots.get();
    // Claim when the room fits a batch, so that one claim and one completion serve several jobs,
    // or at once when a running slot idles with nothing held for it. Counted, not read off the
    // semaphore: a permit just released reads free until the held job waiting for it takes it.
    int runningNow = running.get();
    boolean idleSlot = runningNow < config.concurrency() && slots.get() <= runningNow;
    boolean claiming = keeper.held() && room > 0 && (room >= config.claimBatch() || idleSlot);
    Duration ackIn = Duration.ZERO;
    int finished = outcomeCount.get();
    // A skip-locked claim completes the finished jobs in its own statement.
    boolean carried = claiming && config.acquisition() == Acquisition.SKIP_LOCKED;
    if ((finished > 0 || writesFailing) && !carried) {
      long waited = System.nanoTime() - firstOutcomeNanos;
      if (claiming || finished >= config.claimBatch() || waited >= ACK_DELAY_NANOS) {
        requestFlush();
        ackIn = writesFailing ? FIRST_BACKOFF.multipliedBy(10) : Duration.ZERO;
      } else {
        ackIn = Duration.ofNanos(ACK_DELAY_NANOS - waited);
      }
    }
    Duration wait;
    if (!keeper.held()) {
      wait = config.heartbeatInterval();
    } else if (!claiming) {
      wait = config.safetyPoll(); // a job whose end leaves work wakes the loop
    } else {
      Duration stagger = stagger();
      if (stagger != null) {
        wait = stagger;
      } else {
        wait =
            config.acquisition() == Acquisition.OPTIMISTIC
                ? claimOptimistically(room)
                : claim(room);
      }
    }
    return ackIn.isZero() || ackIn.compareTo(wait) >= 0 ? wait : ackIn;
  }

  /**
   * How long an idle node (holding no job) waits before it claims: {@link #STAGGER} per live node
   * that sorts before it (at most {@link #MAX_STAGGER_RANK} of them), so that a notification, which
   * every idle node hears, has the first of them claim alone instead of all of them at once; null
   * to claim now. A node holding jobs claims at once.
   */
  private Duration stagger() {
    int rank = Math.min(keeper.rank(), MAX_STAGGER_RANK);
    if (rank == 0 || held.get() > 0) {
      staggering = false;
      return null;
    }
    long now = System.nanoTime();
    if (!staggering) {
      staggering = true;
      staggerUntil = now + rank * STAGGER.toNanos();
    }
    long left = staggerUntil - now;
    if (left > 0) {
      return Duration.ofNanos(left);
    }
    staggering = false;
    return null;
  }

  /**
   * Queues an outcome for the writer thread, noting when the oldest waiting one came; true when it
   * is that oldest one (the loop must set its timer for it).
   */
  private boolean offer(Outcome outcome) {
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
  private void requestFlush() {
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
  private void writePending() {
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
   * Claims the whole room in one statement, which also completes the jobs this lease finished;
   * returns how long to wait before looking again.
   */
  private Duration claim(int room) {
    metrics.attempts.increment();
    List<ClaimedJob> claimed = onWriter(() -> claimCarrying(room));
    start(claimed);
    pace.found(claimed.size());
    return claimed.size() == room ? Duration.ZERO : untilNextDue();
  }

  /**
   * On the writer thread, which owns the outcomes being written: claims {@code room} jobs and
   * completes this lease's finished ones in the same round trip, then writes the other outcomes
   * (failures, hand-backs, an earlier lease's completions). The claimed jobs are returned even when
   * those writes fail: they are this node's now.
   */
  private List<ClaimedJob> claimCarrying(int room) {
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
  private <T> T onWriter(Supplier<T> work) {
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

  /**
   * Claims Camunda's way: a cycle's candidates, then an update each. After lock failures the next
   * cycle waits and takes more candidates (when backoff is configured); {@code
   * acquisitionBackoffDecreaseThreshold} clean cycles in a row lower the level again by one.
   */
  private Duration claimOptimistically(int room) {
    int asked = pace.candidates(room);
    metrics.attempts.increment();
    JobStore.ClaimAttempt attempt = store.claimOptimistically(keeper.lease(), types, asked);
    start(attempt.jobs());
    pace.found(attempt.jobs().size() + attempt.lockFailures());
    if (attempt.lockFailures() > 0) {
      metrics.lockFailures.increment(attempt.lockFailures());
      return pace.collided();
    }
    pace.clean();
    return attempt.jobs().size() == asked ? Duration.ZERO : untilNextDue();
  }

  /**
   * Starts the claimed jobs: each without an exclusive key on a virtual thread of its own, the jobs
   * of one key on one virtual thread that runs them one after another in due order.
   */
  private void start(List<ClaimedJob> claimed) {
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
        offer(new Outcome.Released(one.job));
      }
      slots.decrementAndGet();
    }
  }

  private void runChain(List<HeldJobs.Held> chain) {
    boolean first = false;
    try {
      for (int i = 0; i < chain.size(); i++) {
        boolean oldest = run(chain.get(i));
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
          || outcomeCount.get() >= config.claimBatch()) {
        store.wake();
      }
    }
  }

  /**
   * Until the next job becomes due (the local timer), or else the idle wait (growing with the empty
   * claims in a row) when it is configured, or the jittered safety poll; a notification ends the
   * wait earlier.
   */
  private Duration untilNextDue() {
    Instant now = clock.instant();
    Duration poll = pace.idleBound();
    return store
        .nextDue(types, now.plus(poll))
        .map(due -> Duration.between(now, due))
        .filter(Duration::isPositive)
        .orElse(poll);
  }

  private static Duration jittered(Duration poll) {
    return Duration.ofMillis(
        Math.max(
            1, Math.round(poll.toMillis() * ThreadLocalRandom.current().nextDouble(0.8, 1.2))));
  }

  /**
   * Runs one held job (unless dropped or stopping) and queues its outcome; true when that outcome
   * is the oldest waiting to be written.
   */
  private boolean run(HeldJobs.Held one) {
    ClaimedJob job = one.job;
    one.enter();
    boolean permit = false;
    boolean first = false;
    try {
      if (one.dropped()) {
        first = offer(new Outcome.Dropped(job));
        return first;
      }
      permits.acquire();
      permit = true;
      running.incrementAndGet();
      if (stopping) {
        first = offer(new Outcome.Released(job));
        return first;
      }
      // A job starts only under the lease held now: a node that was paused past its lease, or
      // registered again since the claim, must not run what another node may run already.
      if (!keeper.holds(job.lease())) {
        holding.drop(job.lease(), "it lapsed before the job could start");
      }
      if (!holding.start(one)) {
        Thread.interrupted(); // the wake-up of the drop, if it came
        first = offer(new Outcome.Dropped(job));
        return first;
      }
      Duration late = Duration.between(job.dueAt(), clock.instant());
      metrics.startLatency.record(late.isNegative() ? Duration.ZERO : late);
      Object payload;
      try {
        payload = job.payload().read();
      } catch (RuntimeException e) {
        metrics.unreadable.increment();
        first = offer(new Outcome.Unreadable(job, "The payload cannot be read: " + describe(e)));
        return first;
      }
      JobContext context =
          new JobContext(
              job.id(),
              job.type(),
              payload,
              job.attempt(),
              job.retriesLeft(),
              job.dueAt(),
              job.exclusiveKey(),
              config.nodeId(),
              transaction -> store.complete(transaction, job.lease(), job.id()),
              () -> keeper.holds(job.lease()));
      handlers.get(job.type()).handle(context);
      metrics.executed.increment();
      first = offer(new Outcome.Completed(job, context.completedInTransaction()));
    } catch (InterruptedException e) {
      first = offer(one.dropped() ? new Outcome.Dropped(job) : new Outcome.Released(job));
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      metrics.failed.increment();
      first = offer(new Outcome.Failed(job, describe(e)));
    } finally {
      holding.remove(one);
      if (permit) {
        running.decrementAndGet();
        permits.release();
      }
      held.decrementAndGet();
    }
    return first;
  }

  private static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
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
  private void flush() {
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

  private static List<Long> ids(List<Outcome> outcomes) {
    return outcomes.stream().map(o -> o.job().id()).toList();
  }

  private void complete(NodeLease lease, List<Outcome> completed) {
    settle(lease, completed, store.complete(lease, ids(completed)));
  }

  /** Counts the completions written together and tells of those the lease no longer held. */
  private void settle(NodeLease lease, List<Outcome> completed, Set<Long> done) {
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

  /**
   * Stops: no more claims; running jobs get {@code shutdownTimeout} to end (then are interrupted
   * and handed back), jobs not started are handed back, outcomes written, the node deregistered.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopping = true;
    boolean interrupted = false;
    stopped.countDown();
    store.wake();
    try {
      // Woken, not interrupted: an interrupt would fail a database call the loop may be in.
      if (acquisition.isAlive()) {
        acquisition.join();
      }
      workers.shutdown();
      if (!workers.awaitTermination(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn(
            "Node {}: jobs still running after {}; interrupting them (they are handed back)",
            config.nodeId(),
            config.shutdownTimeout());
        workers.shutdownNow();
        workers.awaitTermination(5, TimeUnit.SECONDS);
      }
      heartbeat.shutdown();
      heartbeat.awaitTermination(5, TimeUnit.SECONDS);
      writer.shutdown();
      writer.awaitTermination(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
      workers.shutdownNow();
      heartbeat.shutdownNow();
      writer.shutdownNow();
    }
    if (started) {
      try {
        flush();
        store.deregister(keeper.lease());
      } catch (RuntimeException e) {
        LOG.warn(
            "Node {} stopped without writing back every outcome ({}): its jobs run again once its"
                + " lease lapses",
            config.nodeId(),
            e.getMessage());
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
