package io.sluice.jobs.internal;

import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.LeaseHolder;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NodeLease;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's heartbeat: renews its lease ({@link LeaseHolder}: registering again, with a new epoch,
 * when it lapsed), notes the node's rank among the live nodes, reclaims the jobs of lapsed nodes,
 * and now and then counts the waiting jobs per type, warning once per type this node has no handler
 * for. When the node finds its lease lost (a renewal refused, or not renewed in time), it is told
 * ({@code lost}) so that it drops the jobs it claimed under that lease and has not started.
 */
final class LeaseKeeper {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Set<String> types;
  private final JobMetrics metrics;
  private final LeaseHolder holder;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private final RepeatedFailureLog reclaimFailures;
  private volatile int rank;
  private long lastCount;

  /**
   * The heartbeat of a node handling {@code types}; {@code lost} is told of a lease the node no
   * longer holds, with why.
   */
  LeaseKeeper(
      JobStore store,
      JobExecutorConfig config,
      Set<String> types,
      JobMetrics metrics,
      BiConsumer<NodeLease, String> lost) {
    this.store = store;
    this.config = config;
    this.types = types;
    this.metrics = metrics;
    this.holder = new LeaseHolder(store, config.nodeId(), config.leaseDuration());
    holder.onLost(lost);
    this.reclaimFailures =
        new RepeatedFailureLog(
            LOG, "Node " + config.nodeId() + " reclaiming lapsed nodes' jobs", store.clock());
  }

  /** The node's lease holder: what else of this process claims under the node's lease uses it. */
  LeaseHolder holder() {
    return holder;
  }

  /** The lease, or null before the first registration. */
  NodeLease lease() {
    return holder.lease();
  }

  /** The node's rank among the live nodes by name at the last heartbeat (0: first or alone). */
  int rank() {
    return rank;
  }

  /** Whether the lease is held now: claims are made only then. */
  boolean held() {
    return holder.held();
  }

  /**
   * Whether {@code claimedUnder} is the lease held now: a job claimed under it may start, and its
   * running handler still holds it.
   */
  boolean holds(NodeLease claimedUnder) {
    return holder.holds(claimedUnder);
  }

  /** Registers the node; a StoreException when the database cannot be reached. */
  void register() {
    holder.register();
    lastCount = System.nanoTime() - config.depthInterval().toNanos();
  }

  /** One heartbeat; never throws (a failure leaves the lease to run out). */
  void beat() {
    long started = System.nanoTime();
    if (!holder.beat()) {
      return;
    }
    NodeLease lease = holder.lease();
    try {
      rank = store.rank(lease);
      List<Long> reclaimed = store.reclaim();
      if (!reclaimed.isEmpty()) {
        LOG.info(
            "Node {} reclaimed {} job(s) held by nodes whose lease lapsed",
            config.nodeId(),
            reclaimed.size());
      }
      if (started - lastCount >= config.depthInterval().toNanos()) {
        lastCount = started;
        count();
      }
    } catch (RuntimeException e) {
      // The lease is renewed; the next beat tries again.
      reclaimFailures.failed(
          "Node {} could not reclaim lapsed nodes' jobs or count the waiting ones: {}",
          config.nodeId(),
          e.getMessage());
      return;
    }
    reclaimFailures.recovered();
  }

  private void count() {
    Map<String, Long> waiting = store.waitingByType();
    metrics.waiting(waiting);
    waiting.forEach(
        (type, count) -> {
          if (count > 0 && !types.contains(type) && warned.add(type)) {
            LOG.warn(
                "{} job(s) of type '{}' wait: node {} has no handler for '{}' (its handlers: {})."
                    + " They are not failed; a node with a handler for '{}' runs them"
                    + " (JobExecutor.Builder.handler(\"{}\", ...))",
                count,
                type,
                config.nodeId(),
                type,
                types,
                type,
                type);
          }
        });
  }
}
