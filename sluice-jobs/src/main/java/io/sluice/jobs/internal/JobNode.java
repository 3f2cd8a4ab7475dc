package io.sluice.jobs.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.Backoff;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.jobs.Acquisition;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobHandler;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One executor node: an acquisition thread that claims at most the free room (concurrency +
 * prefetch − jobs held) and writes outcomes back in bulk, a heartbeat thread ({@link LeaseKeeper}),
 * a thread that prunes the job history while the node ranks first ({@link HistoryPruner}), and a
 * virtual thread per held job, which waits for one of {@code concurrency} permits before running
 * its handler. The acquisition thread never runs a job and the pool never refuses one: nothing is
 * claimed that has no room.
 */
public final class JobNode implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JobNode.class);

  /** The acquisition's pause while the job store cannot be used: 100 ms doubled up to 5 s. */
  private static final Backoff OUTAGE =
      Backoff.doubling(Duration.ofMillis(100), Duration.ofSeconds(5));

  /** How the safety poll and the acquisition backoff are spread: ±20%. */
  private static final Backoff.Jitter JITTER = Backoff.Jitter.spread(0.2);

  /** How long a finished job's outcome may wait to be written with others'. */
  private static final long ACK_DELAY_NANOS = Duration.ofMillis(50).toNanos();

  /** How much later than the live node before it an idle node claims. */
  static final Duration STAGGER = Duration.ofMillis(2);

  /** The most live nodes before it an idle node waits for. */
  static final int MAX_STAGGER_RANK = 5;

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Set<String> types;
  private final Clock clock;
  private final JobMetrics metrics;
  private final LeaseKeeper keeper;
  private final AtomicInteger held = new AtomicInteger();

  /**
   * The running slots the held jobs take: one per job without an exclusive key, one per key for the
   * jobs of a key, which run one after another. The room to claim is counted in slots.
   */
  private final AtomicInteger slots = new AtomicInteger();

  private final HeldJobs holding;
  private final AtomicInteger running = new AtomicInteger();
  private final OutcomeWriter outcomes;
  private final KeyedChains chains;
  private final AcquisitionPace pace;
  private boolean staggering;
  private long staggerUntil;
  private final ExecutorService workers;
  private final ScheduledExecutorService heartbeat;
  private final HistoryPruner pruner;
  private final Thread acquisition;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean stopping;
  private boolean outage;
  private final RepeatedFailureLog acquisitionFailures;
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
    this.types = Set.copyOf(handlers.keySet());
    this.clock = store.clock();
    this.acquisitionFailures =
        new RepeatedFailureLog(LOG, "Node " + config.nodeId() + " acquiring jobs", clock);
    this.metrics = new JobMetrics(registry, config.nodeId());
    metrics.held(held);
    this.holding = new HeldJobs(metrics, config.nodeId());
    this.keeper = new LeaseKeeper(store, config, types, metrics, holding::drop);
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
    this.outcomes = new OutcomeWriter(store, config, types, metrics, keeper);
    this.pruner = new HistoryPruner(store, config, keeper::rank, () -> stopping, registry);
    Workers jobs =
        new Workers(
            store,
            config,
            Map.copyOf(handlers),
            metrics,
            keeper,
            holding,
            held,
            running,
            outcomes,
            () -> stopping);
    this.chains =
        new KeyedChains(
            store, config, metrics, holding, workers, jobs, held, slots, running, outcomes);
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
    pruner.start();
    acquisition.start();
    LOG.info(
        "Job executor node {} started with lease {}: handlers {}, concurrency {} on virtual"
            + " threads, prefetch {}, lease {} renewed every {}, acquisition {}, {}, retry"
            + " backoff {} ×{} up to {}, history kept {}",
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
        config.maxRetryBackoff(),
        store.historyRetention().isZero() ? "not at all" : store.historyRetention());
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

  /** The holder of the node's lease, renewed by the node's heartbeat. */
  public io.sluice.jobs.LeaseHolder leaseHolder() {
    return keeper.holder();
  }

  private void acquire() {
    Backoff.Failures failures = OUTAGE.failures();
    while (!stopping) {
      long seen = store.changes();
      Duration wait;
      try {
        wait = acquireOnce();
        outage = false;
        acquisitionFailures.recovered();
        failures.reset();
      } catch (RuntimeException e) {
        if (!stopping) {
          outage = true;
          acquisitionFailures.failed(
              "Node {} cannot use the job store ({}); acquisition pauses and retries with backoff"
                  + " up to {}",
              config.nodeId(),
              e.getMessage(),
              OUTAGE.cap());
        }
        wait = failures.next();
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
    int finished = outcomes.count();
    // A skip-locked claim completes the finished jobs in its own statement.
    boolean carried = claiming && config.acquisition() == Acquisition.SKIP_LOCKED;
    if ((finished > 0 || outcomes.failing()) && !carried) {
      long waited = System.nanoTime() - outcomes.firstNanos();
      if (claiming || finished >= config.claimBatch() || waited >= ACK_DELAY_NANOS) {
        outcomes.requestFlush();
        ackIn = outcomes.failing() ? OUTAGE.initial().multipliedBy(10) : Duration.ZERO;
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
   * Claims the whole room in one statement, which also completes the jobs this lease finished;
   * returns how long to wait before looking again.
   */
  private Duration claim(int room) {
    metrics.attempts.increment();
    List<ClaimedJob> claimed = outcomes.onWriter(() -> outcomes.claimCarrying(room));
    chains.start(claimed);
    pace.found(claimed.size());
    return claimed.size() == room ? Duration.ZERO : untilNextDue();
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
    chains.start(attempt.jobs());
    pace.found(attempt.jobs().size() + attempt.lockFailures());
    if (attempt.lockFailures() > 0) {
      metrics.lockFailures.increment(attempt.lockFailures());
      return pace.collided();
    }
    pace.clean();
    return attempt.jobs().size() == asked ? Duration.ZERO : untilNextDue();
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
    return JITTER.apply(poll, ThreadLocalRandom.current());
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
      pruner.stop();
      outcomes.stop(config.shutdownTimeout());
    } catch (InterruptedException e) {
      interrupted = true;
      workers.shutdownNow();
      heartbeat.shutdownNow();
      pruner.stopNow();
      outcomes.stopNow();
    }
    if (started) {
      try {
        outcomes.flush();
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
