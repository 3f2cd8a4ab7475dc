package io.sluice.jobs.config;

import io.sluice.core.app.Application;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutor;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobHandler;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.spi.JobStore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code sluice.jobs:} section of a configuration: the job executor node's settings, the job
 * store's claim order, priority aging and history, and the handler of each job type, either a flow
 * of the configuration (the job's payload goes through it, see {@link JobHandler#flow}) or a {@link
 * JobHandler} class from the component class path. The jobs live in the application's storage
 * ({@code sluice.store:}). Without the section: the defaults and no handler, so no node runs, and
 * the store can still be looked at ({@code sluice jobs}).
 */
public final class JobsConfig {

  /** What runs the jobs of one type, bound to the application once it is built. */
  sealed interface Handler {
    JobHandler bind(Application application);
  }

  /** The jobs go through the flow {@code name}. */
  record FlowHandler(String name) implements Handler {
    @Override
    public JobHandler bind(Application application) {
      return JobHandler.flow(application, name);
    }

    @Override
    public String toString() {
      return "flow " + name;
    }
  }

  /** The jobs run in {@code handler}, an instance of the class {@code className}. */
  record ClassHandler(String className, JobHandler handler) implements Handler {
    @Override
    public JobHandler bind(Application application) {
      return handler;
    }

    @Override
    public String toString() {
      return "class " + className;
    }
  }

  /** The node id the rules are checked with when none is set; a node gets the host's. */
  static final String DEFAULT_NODE_ID = "host-name-and-pid";

  private final JobExecutorConfig executorConfig;
  private final boolean nodeIdGiven;
  private final ClaimOrder claimOrder;
  private final Duration priorityAging;
  private final Duration history;
  private final Map<String, Handler> handlers;

  /**
   * The section; {@code executorConfig} null stands for the defaults, made when asked for, and so
   * does its node id unless {@code nodeIdGiven}.
   */
  JobsConfig(
      JobExecutorConfig executorConfig,
      boolean nodeIdGiven,
      ClaimOrder claimOrder,
      Duration priorityAging,
      Duration history,
      Map<String, Handler> handlers) {
    this.executorConfig = executorConfig;
    this.nodeIdGiven = nodeIdGiven;
    this.claimOrder = claimOrder;
    this.priorityAging = priorityAging;
    this.history = history;
    this.handlers = Map.copyOf(handlers);
  }

  /** The executor node's settings. */
  public JobExecutorConfig executorConfig() {
    // Made late: the default node id asks for the host name (DNS, seconds where the host's own
    // name does not resolve), which only a node needs, not sluice jobs create or validate.
    if (executorConfig == null) {
      return JobExecutorConfig.defaults();
    }
    return nodeIdGiven
        ? executorConfig
        : executorConfig.withNodeId(JobExecutorConfig.defaultNodeId());
  }

  /** The order in which due jobs are claimed; every node of one database uses the same. */
  public ClaimOrder claimOrder() {
    return claimOrder;
  }

  /**
   * What one priority level is worth in due time when the claim order is {@link
   * ClaimOrder#PRIORITY}; every node of one database uses the same.
   */
  public Duration priorityAging() {
    return priorityAging;
  }

  /** How long the job store keeps finished jobs in its history; zero when it keeps none. */
  public Duration history() {
    return history;
  }

  /** Whether any job type has a handler: only then does {@code sluice run} start a node. */
  public boolean hasHandlers() {
    return !handlers.isEmpty();
  }

  /** Each handled job type, in type order, with what runs it ({@code flow x}, {@code class y}). */
  public Map<String, String> handlers() {
    Map<String, String> described = new LinkedHashMap<>();
    handlers.keySet().stream().sorted().forEach(t -> described.put(t, handlers.get(t).toString()));
    return described;
  }

  /**
   * The job store of {@code storage}, its payloads written with {@code values}, keeping the history
   * this section sets.
   */
  public JobStore store(Storage storage, StoredValues values) {
    return JobStores.open(storage, values, claimOrder, priorityAging, history);
  }

  /**
   * An executor node, not started, for the jobs of {@code application}: on its storage, with its
   * stored values, its meter registry, and the handlers bound to its flows.
   */
  public JobExecutor newExecutor(Application application) {
    JobExecutor.Builder executor =
        JobExecutor.builder(store(application.storage(), application.storedValues()))
            .config(executorConfig())
            .meterRegistry(application.meterRegistry());
    handlers.forEach((type, handler) -> executor.handler(type, handler.bind(application)));
    return executor.build();
  }
}
