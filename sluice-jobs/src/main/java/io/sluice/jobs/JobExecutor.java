package io.sluice.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.store.Require;
import io.sluice.jobs.internal.JobNode;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One executor node: runs the jobs of a {@link JobStore} whose types it has a {@link JobHandler}
 * for, beside the other nodes sharing the database. It claims only what it has room for (running
 * slots plus a small prefetch), holds a lease renewed on the database's clock, reclaims the jobs of
 * nodes whose lease lapsed, retries failed jobs with exponential backoff and turns them into
 * incidents when no retry is left. A job of a type it has no handler for waits for a node that has
 * one; it is named once in a warning.
 *
 * <pre>{@code
 * try (JobExecutor executor = JobExecutor.builder(store)
 *     .handler("email", job -> mailer.send((Email) job.payload()))
 *     .build()) {
 *   executor.start();
 *   ...
 * }
 * }</pre>
 */
public final class JobExecutor implements AutoCloseable, HealthContributor {

  private final JobNode node;
  private final JobExecutorConfig config;
  private final JobStore store;

  private JobExecutor(Builder builder) {
    this.config = builder.config;
    this.store = builder.store;
    this.node = new JobNode(builder.store, builder.config, builder.handlers, builder.registry);
  }

  /** A builder of an executor node on {@code store}. */
  public static Builder builder(JobStore store) {
    return new Builder(Require.nonNull(store, "store"));
  }

  /**
   * Registers the node and starts taking jobs; a {@link io.sluice.core.store.StoreException} when
   * the database cannot be reached.
   */
  public void start() {
    node.start();
  }

  /** The store the node works on. */
  JobStore store() {
    return store;
  }

  /** The node's id. */
  public String nodeId() {
    return config.nodeId();
  }

  /** The node's lease (its epoch changes when it registers again), or null before start. */
  public NodeLease lease() {
    return node.lease();
  }

  /**
   * The holder of the node's lease, renewed by the node's heartbeat while it runs: whatever else of
   * this process claims work on the same database (a batch run on a shared PostgreSQL store) claims
   * it under this lease, so that one lease says whether this process is alive.
   */
  public LeaseHolder leaseHolder() {
    return node.leaseHolder();
  }

  /** Whether the node holds its lease; a node that cannot renew it stops taking jobs. */
  public boolean holdsLease() {
    return node.holdsLease();
  }

  /**
   * Ready when the node holds a fresh lease: registered, and renewed in time (a node that cannot
   * renew, its store away or the process paused past the lease, takes no job until it holds one
   * again).
   */
  @Override
  public List<HealthCheck> health() {
    String component = "job node " + config.nodeId();
    NodeLease lease = node.lease();
    if (lease == null) {
      return List.of(HealthCheck.down(component, "not started"));
    }
    return List.of(
        node.holdsLease()
            ? HealthCheck.up(component, "holds its lease (epoch " + lease.epoch() + ")")
            : HealthCheck.down(
                component,
                "lost its lease (epoch "
                    + lease.epoch()
                    + "): it takes no job until it renews one"));
  }

  @Override
  public String component() {
    return "job node " + config.nodeId();
  }

  /**
   * Stops: takes no more jobs, lets running ones end (up to the shutdown timeout), hands back what
   * did not start, and leaves the cluster.
   */
  @Override
  public void close() {
    node.close();
  }

  /** Builds a {@link JobExecutor}; {@link #build()} checks every rule. */
  public static final class Builder {
    private final JobStore store;
    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private final ConfigProblems problems = new ConfigProblems();
    private JobExecutorConfig config;
    private MeterRegistry registry = new SimpleMeterRegistry();

    private Builder(JobStore store) {
      this.store = store;
    }

    /** The node's configuration ({@link JobExecutorConfig#defaults()} unless set). */
    public Builder config(JobExecutorConfig value) {
      this.config = value;
      return this;
    }

    /** Runs the jobs of {@code type} with {@code handler}; one handler per type. */
    public Builder handler(String type, JobHandler handler) {
      try {
        NewJob.type(type);
      } catch (RuntimeException e) {
        problems.check(false, "sluice.jobs.handlers", type, e.getMessage());
        return this;
      }
      problems.check(handler != null, "sluice.jobs.handlers." + type, null, "must not be null");
      if (problems.check(
          !handlers.containsKey(type),
          "sluice.jobs.handlers." + type,
          handler,
          "was already set; one handler per job type")) {
        handlers.put(type, handler);
      }
      return this;
    }

    /** Where the node's meters go (a private registry unless set). */
    public Builder meterRegistry(MeterRegistry value) {
      this.registry = value;
      return this;
    }

    /** The executor, not started; fails listing every broken rule. */
    public JobExecutor build() {
      if (config == null) {
        config = JobExecutorConfig.defaults();
      }
      problems.check(registry != null, "meterRegistry", null, "must not be null");
      problems.throwIfAny();
      return new JobExecutor(this);
    }
  }
}
