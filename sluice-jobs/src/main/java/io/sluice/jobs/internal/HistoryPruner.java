package io.sluice.jobs.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.spi.JobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the history entries older than the store's {@link JobStore#historyRetention()} (every
 * entry when it keeps none: those left from when it did), on a thread of its own, when this node
 * ranks first among the live nodes (so one node of a cluster prunes): a pass every {@link
 * #INTERVAL}, the first two heartbeats after the start (once the rank is known). A pass deletes up
 * to {@link #BATCH} entries per statement, pausing {@link #PAUSE} between two, until one deletes
 * none: a statement holds its locks (on SQLite, the one writer) for a few milliseconds, and the
 * claims and completions of every node go on between.
 */
final class HistoryPruner {

  private static final Logger LOG = LoggerFactory.getLogger(HistoryPruner.class);

  /** The most entries one statement deletes. */
  static final int BATCH = 1000;

  /** The pause between two statements of a pass. */
  static final Duration PAUSE = Duration.ofMillis(50);

  /** How often a pass runs. */
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final JobStore store;
  private final JobExecutorConfig config;
  private final IntSupplier rank;
  private final BooleanSupplier stopping;
  private final Counter pruned;
  private final RepeatedFailureLog failures;
  private final ScheduledExecutorService thread;

  /**
   * The pruner of a node whose rank {@code rank} tells (see {@link LeaseKeeper#rank()}); a pass
   * ends early once {@code stopping}.
   */
  HistoryPruner(
      JobStore store,
      JobExecutorConfig config,
      IntSupplier rank,
      BooleanSupplier stopping,
      MeterRegistry registry) {
    this.store = store;
    this.config = config;
    this.rank = rank;
    this.stopping = stopping;
    this.pruned =
        Counter.builder("sluice.jobs.history.pruned")
            .description("History entries this node deleted because they were older than kept")
            .tag("node", config.nodeId())
            .register(registry);
    this.failures =
        new RepeatedFailureLog(
            LOG, "Node " + config.nodeId() + " pruning the job history", store.clock());
    // A platform thread: it calls the SQLite driver (native code).
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform()
                .name("sluice-jobs-history-" + config.nodeId())
                .daemon(true)
                .factory());
  }

  /** Starts the passes. */
  void start() {
    long first = config.heartbeatInterval().multipliedBy(2).toMillis();
    thread.scheduleWithFixedDelay(this::pass, first, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the passes, waiting for a statement under way. */
  void stop() throws InterruptedException {
    thread.shutdownNow();
    thread.awaitTermination(5, TimeUnit.SECONDS);
  }

  /** Stops the passes without waiting. */
  void stopNow() {
    thread.shutdownNow();
  }

  /** One pass; never throws (the next pass tries again). */
  void pass() {
    if (rank.getAsInt() != 0) {
      return;
    }
    try {
      Instant before = store.clock().instant().minus(store.historyRetention());
      int deleted;
      do {
        deleted = store.prune(before, BATCH);
        pruned.increment(deleted);
        if (deleted > 0) {
          Thread.sleep(PAUSE.toMillis()); // room for the claims between two deletes
        }
        // On until a statement finds nothing: a recent entry among the oldest (a node whose clock
        // runs ahead) makes a statement delete fewer than BATCH with more left behind it.
      } while (deleted > 0 && !stopping.getAsBoolean());
      failures.recovered();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failures.failed(
          "Node {} could not prune the job history ({}); it tries again in {}",
          config.nodeId(),
          e.getMessage(),
          INTERVAL);
    }
  }
}
