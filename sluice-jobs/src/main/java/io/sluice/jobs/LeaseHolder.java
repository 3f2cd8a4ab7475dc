package io.sluice.jobs;

import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.store.Require;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's lease on a {@link JobStore}'s database ({@code sluice_job_node}), the one liveness
 * mechanism of a cluster: the job executor claims jobs under it, and batch runs on a shared store
 * claim blocks under it. The epoch of the lease is the fencing token: what was claimed under one
 * lease can be finished only while that lease holds, so a node that wakes after its lease lapsed
 * commits nothing of what it held.
 *
 * <p>Each {@link #beat()} renews the lease on the database's clock, registering again (a new epoch)
 * when the renewal is refused. The lease counts as held until its duration less a safety margin (a
 * tenth of it) after the start of the last successful renewal, by this process's monotonic clock:
 * earlier than the database sees it lapse, by at least the margin. Whoever holds something under
 * the lease is told when it is lost ({@link #onLost}), with why.
 *
 * <p>A job executor beats its own holder from its heartbeat; anyone else {@link #start}s one with a
 * heartbeat thread of its own. Thread-safe.
 */
public final class LeaseHolder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseHolder.class);

  private final JobStore store;
  private final String node;
  private final Duration duration;
  private final long validNanos;
  private final RepeatedFailureLog renewFailures;
  private final List<BiConsumer<NodeLease, String>> lost = new CopyOnWriteArrayList<>();
  private volatile NodeLease lease;
  private volatile long validUntil;
  private volatile ScheduledExecutorService heartbeat;

  /**
   * The holder of node {@code node}'s lease of {@code duration} on {@code store}, not registered
   * yet.
   */
  public LeaseHolder(JobStore store, String node, Duration duration) {
    this.store = Require.nonNull(store, "store");
    this.node = Require.nonBlank(node, "node");
    this.duration = Require.nonNull(duration, "duration");
    this.validNanos = duration.minus(duration.dividedBy(10)).toNanos();
    this.renewFailures =
        new RepeatedFailureLog(LOG, "Node " + node + " renewing its lease", store.clock());
  }

  /**
   * A registered holder of node {@code node}'s lease that renews it every {@code heartbeat} on a
   * daemon thread of its own until {@link #close()}d; a StoreException when the database cannot be
   * reached.
   */
  public static LeaseHolder start(
      JobStore store, String node, Duration duration, Duration heartbeat) {
    LeaseHolder holder = new LeaseHolder(store, node, duration);
    holder.register();
    ScheduledExecutorService beats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("sluice-lease-" + node).daemon(true).factory());
    long every = heartbeat.toMillis();
    beats.scheduleWithFixedDelay(holder::beat, every, every, TimeUnit.MILLISECONDS);
    holder.heartbeat = beats;
    return holder;
  }

  /** Epoch milliseconds on the database's clock, for {@code type} (sqlite or postgresql). */
  public static String databaseNow(String type) {
    return type.equals("postgresql")
        ? "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint"
        : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
  }

  /**
   * A condition true when the lease of a node and epoch (two parameters, in that order) is valid
   * now on the database's clock, for {@code type}: the fence of a write made under that lease.
   */
  public static String validSql(String type) {
    return "EXISTS (SELECT 1 FROM sluice_job_node lease WHERE lease.node = ? AND lease.epoch = ?"
        + " AND lease.lease_expires > "
        + databaseNow(type)
        + ")";
  }

  /**
   * A condition true when the lease named by the columns {@code node} and {@code epoch} is not
   * valid now (lapsed, replaced by a new registration, or none: the columns are null), for {@code
   * type}: what was held under it may be claimed by another node.
   */
  public static String lapsedSql(String type, String node, String epoch) {
    return "("
        + node
        + " IS NULL OR NOT EXISTS (SELECT 1 FROM sluice_job_node lease WHERE lease.node = "
        + node
        + " AND lease.epoch = "
        + epoch
        + " AND lease.lease_expires > "
        + databaseNow(type)
        + "))";
  }

  /** The node's id. */
  public String node() {
    return node;
  }

  /** The lease's duration after each renewal. */
  public Duration duration() {
    return duration;
  }

  /** The lease now (its epoch changes when the node registers again), or null before register. */
  public NodeLease lease() {
    return lease;
  }

  /** Whether the lease is held now: claims are made only then. */
  public boolean held() {
    return lease != null && System.nanoTime() - validUntil < 0;
  }

  /**
   * Whether {@code claimedUnder} is the lease held now: what was claimed under it may start, and a
   * running piece of work still holds it.
   */
  public boolean holds(NodeLease claimedUnder) {
    return claimedUnder != null && claimedUnder.equals(lease) && held();
  }

  /** Tells {@code listener} of every lease this holder loses, with why. */
  public void onLost(BiConsumer<NodeLease, String> listener) {
    lost.add(Require.nonNull(listener, "listener"));
  }

  /** Registers the node; a StoreException when the database cannot be reached. */
  public void register() {
    long started = System.nanoTime();
    lease = store.register(node, duration);
    validUntil = started + validNanos;
  }

  /**
   * Renews the lease (registering again when it lapsed); never throws. True when the lease is
   * renewed, false when the database could not be reached (the lease runs out on its own then).
   */
  public boolean beat() {
    long started = System.nanoTime();
    try {
      NodeLease current = lease;
      if (!store.renew(current, duration)) {
        LOG.warn(
            "Node {} lost its lease {}: it lapsed before being renewed (the node was paused, or"
                + " the database unreachable, for longer than {}). What it held is reclaimed by"
                + " other nodes and its late commits refused; registering again",
            node,
            current,
            duration);
        // Lost from this moment: work asking, or about to start, must hear it before the new
        // lease is registered, not only once the old one runs out on this clock.
        validUntil = started;
        tell(current, "its renewal was refused");
        lease = store.register(node, duration);
        store.wake();
      }
      validUntil = started + validNanos;
      if (renewFailures.recovered()) {
        store.wake();
      }
      return true;
    } catch (RuntimeException e) {
      renewFailures.failed(
          "Node {} could not renew its lease {} ({}); it stops taking work when the lease ends"
              + " and keeps trying",
          node,
          lease,
          e.getMessage());
      if (!held()) {
        tell(lease, "it could not be renewed in time");
      }
      return false;
    }
  }

  private void tell(NodeLease gone, String why) {
    for (BiConsumer<NodeLease, String> listener : lost) {
      listener.accept(gone, why);
    }
  }

  /**
   * Stops a heartbeat this holder {@link #start}ed and gives the lease up (what was held under it
   * is claimable at once); a failure to reach the database is logged, the lease then lapses.
   */
  @Override
  public void close() {
    ScheduledExecutorService beats = heartbeat;
    if (beats != null) {
      beats.shutdownNow();
      try {
        beats.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    NodeLease current = lease;
    if (current == null) {
      return;
    }
    try {
      store.deregister(current);
    } catch (RuntimeException e) {
      LOG.warn(
          "Node {} could not give up its lease {} ({}); it lapses within {}",
          node,
          current,
          e.getMessage(),
          duration);
    }
  }
}
