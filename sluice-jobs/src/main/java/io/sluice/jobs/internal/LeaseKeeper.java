package io.sluice.jobs.internal;

import io.sluice.core.store.JobStore;
import io.sluice.core.store.NodeLease;
import io.sluice.jobs.JobExecutorConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's heartbeat: renews its lease on the database's clock (registering again, with a new
 * epoch, when it lapsed), notes the node's rank among the live nodes, reclaims the jobs of lapsed
 * nodes, and now and then counts the waiting jobs per type, warning once per type this node has no
 * handler for. The lease counts as held until {@code leaseDuration} after the start of the last
 * successful renewal, by this process's monotonic clock: never later than the database sees it
 * lapse.
 */
final class LeaseKeeper {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

  private final JobStore store;
  private final JobExecutorConfig config;
  private final Set<String> types;
  private final JobMetrics metrics;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private volatile NodeLease lease;
  private volatile long validUntil;
  private volatile boolean failing;
  private volatile int rank;
  private long lastCount;

  LeaseKeeper(JobStore store, JobExecutorConfig config, Set<String> types, JobMetrics metrics) {
    this.store = store;
    this.config = config;
    this.types = types;
    this.metrics = metrics;
  }

  /** The lease, or null before the first registration. */
  NodeLease lease() {
    return lease;
  }

  /** The node's rank among the live nodes by name at the last heartbeat (0: first or alone). */
  int rank() {
    return rank;
  }

  /** Whether the lease is held now: claims are made only then. */
  boolean held() {
    return lease != null && System.nanoTime() - validUntil < 0;
  }

  /** Registers the node; a StoreException when the database cannot be reached. */
  void register() {
    long started = System.nanoTime();
    lease = store.register(config.nodeId(), config.leaseDuration());
    validUntil = started + config.leaseDuration().toNanos();
    lastCount = started - config.depthInterval().toNanos();
  }

  /** One heartbeat; never throws (a failure leaves the lease to run out). */
  void beat() {
    long started = System.nanoTime();
    try {
      NodeLease current = lease;
      if (!store.renew(current, config.leaseDuration())) {
        LOG.warn(
            "Node {} lost its lease {}: it lapsed before being renewed (the node was paused, or"
                + " the database unreachable, for longer than {}). Its jobs are reclaimed by other"
                + " nodes and its late completions refused; registering again",
            config.nodeId(),
            current,
            config.leaseDuration());
        lease = store.register(config.nodeId(), config.leaseDuration());
        store.wake();
      }
      validUntil = started + config.leaseDuration().toNanos();
      if (failing) {
        failing = false;
        LOG.info("Node {} renewed its lease {} again", config.nodeId(), lease);
        store.wake();
      }
    } catch (RuntimeException e) {
      if (!failing) {
        failing = true;
        LOG.warn(
            "Node {} could not renew its lease {} ({}); it stops taking jobs when the lease ends"
                + " and keeps trying every {}",
            config.nodeId(),
            lease,
            e.getMessage(),
            config.heartbeatInterval());
      }
      return;
    }
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
      LOG.warn(
          "Node {} could not reclaim lapsed nodes' jobs or count the waiting ones: {}",
          config.nodeId(),
          e.getMessage());
    }
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
