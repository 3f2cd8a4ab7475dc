package io.sluice.jobs.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.core.processor.JavaComponentProcessor;
import io.sluice.jobs.Acquisition;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobHandler;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.spi.NewJob;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Maps {@code sluice.jobs:}: the executor node's settings, the claim order with its priority aging,
 * and the handlers.
 */
final class JobsMapper {

  private final ClassLoader componentLoader;
  private final ProblemCollector problems;

  JobsMapper(ClassLoader componentLoader, ProblemCollector problems) {
    this.componentLoader = componentLoader;
    this.problems = problems;
  }

  /**
   * The section, its handlers' flows among {@code flows}; the defaults when it is absent, null when
   * it is broken (its problems recorded).
   */
  JobsConfig map(ConfigNode jobs, Set<String> flows) {
    if (!jobs.isPresent()) {
      return new JobsConfig(
          null,
          false,
          ClaimOrder.PRIORITY,
          JobStores.DEFAULT_PRIORITY_AGING,
          JobStores.DEFAULT_HISTORY,
          Map.of());
    }
    JobExecutorConfig executor = executorConfig(jobs);
    ClaimOrder order = claimOrder(jobs);
    Duration aging = jobs.duration("priorityAging", JobStores.DEFAULT_PRIORITY_AGING);
    boolean agingValid = aging.toMillis() >= 1;
    if (!agingValid) {
      problems.add(
          jobs.get("priorityAging").path(),
          jobs.text("priorityAging", null),
          "must be a duration of at least 1 ms");
    } else if (order == ClaimOrder.DUE_DATE && jobs.has("priorityAging")) {
      // Never silently ignored: whoever wrote it expects priorities to count.
      agingValid = false;
      problems.add(
          jobs.get("priorityAging").path(),
          jobs.text("priorityAging", null),
          "has no effect with claimOrder due-date, which ignores priorities; remove one of them");
    }
    Duration history = history(jobs);
    Map<String, JobsConfig.Handler> handlers = handlers(jobs.get("handlers"), flows);
    return executor == null || order == null || !agingValid || history == null || handlers == null
        ? null
        : new JobsConfig(executor, jobs.has("nodeId"), order, aging, history, handlers);
  }

  /**
   * How long the history keeps finished jobs: 0 (none), or 1 minute to 365 days; null when out of
   * those bounds (recorded).
   */
  private Duration history(ConfigNode jobs) {
    Duration history =
        jobs.duration("history", JobStores.DEFAULT_HISTORY, JobStores.MAX_HISTORY.plusMillis(1));
    if (!history.isZero()
        && (history.compareTo(JobStores.MIN_HISTORY) < 0
            || history.compareTo(JobStores.MAX_HISTORY) > 0)) {
      problems.add(
          jobs.get("history").path(),
          jobs.text("history", null),
          "must be 0ms (no history kept) or a duration from 1m to 8760h (365 days)");
      return null;
    }
    return history;
  }

  /** The claim order, priority unless written; null when it is no order (recorded). */
  private ClaimOrder claimOrder(ConfigNode jobs) {
    String value = jobs.text("claimOrder", ClaimOrder.PRIORITY.key());
    try {
      return ClaimOrder.of(value);
    } catch (IllegalArgumentException e) {
      problems.add(jobs.get("claimOrder").path(), value, "must be priority or due-date");
      return null;
    }
  }

  /**
   * The node's settings: each key written goes to the builder, which keeps its defaults for the
   * others and checks every rule, naming the key ({@code sluice.jobs.concurrency}). A new setting
   * of {@link JobExecutorConfig} is one more line here and a property in the schema.
   */
  private JobExecutorConfig executorConfig(ConfigNode jobs) {
    JobExecutorConfig.Builder config = JobExecutorConfig.builder();
    // Without a nodeId, the rules are checked with a stand-in: the default (the host name, which
    // may wait for DNS) is made only when a node is (JobsConfig.executorConfig()), never for a
    // command that only reads or creates jobs.
    config.nodeId(jobs.has("nodeId") ? jobs.text("nodeId", null) : JobsConfig.DEFAULT_NODE_ID);
    ifSet(jobs, "concurrency", key -> config.concurrency(jobs.integer(key, 0)));
    ifSet(jobs, "prefetch", key -> config.prefetch(jobs.integer(key, 0)));
    ifSet(jobs, "leaseDuration", key -> config.leaseDuration(jobs.duration(key, null)));
    ifSet(jobs, "heartbeatInterval", key -> config.heartbeatInterval(jobs.duration(key, null)));
    ifSet(jobs, "safetyPoll", key -> config.safetyPoll(jobs.duration(key, null)));
    ifSet(jobs, "retryBackoff", key -> config.retryBackoff(jobs.duration(key, null)));
    ifSet(jobs, "maxRetryBackoff", key -> config.maxRetryBackoff(jobs.duration(key, null)));
    ifSet(jobs, "backoffFactor", key -> config.backoffFactor(jobs.decimal(key, 0)));
    ifSet(jobs, "depthInterval", key -> config.depthInterval(jobs.duration(key, null)));
    ifSet(jobs, "shutdownTimeout", key -> config.shutdownTimeout(jobs.duration(key, null)));
    ifSet(jobs, "acquisition", key -> acquisition(jobs, key, config));
    ifSet(jobs, "jobsPerCycle", key -> config.jobsPerCycle(jobs.integer(key, 0)));
    ifSet(jobs, "maxJobsPerCycle", key -> config.maxJobsPerCycle(jobs.integer(key, 0)));
    ifSet(jobs, "acquisitionBackoff", key -> config.acquisitionBackoff(jobs.duration(key, null)));
    ifSet(
        jobs,
        "maxAcquisitionBackoff",
        key -> config.maxAcquisitionBackoff(jobs.duration(key, null)));
    ifSet(
        jobs,
        "acquisitionBackoffFactor",
        key -> config.acquisitionBackoffFactor(jobs.decimal(key, 0)));
    ifSet(
        jobs,
        "acquisitionBackoffDecreaseThreshold",
        key -> config.acquisitionBackoffDecreaseThreshold(jobs.integer(key, 0)));
    ifSet(jobs, "idleWait", key -> config.idleWait(jobs.duration(key, null)));
    ifSet(jobs, "maxIdleWait", key -> config.maxIdleWait(jobs.duration(key, null)));
    ifSet(jobs, "idleWaitFactor", key -> config.idleWaitFactor(jobs.decimal(key, 0)));
    return problems.attempt("", config::build);
  }

  private void acquisition(ConfigNode jobs, String key, JobExecutorConfig.Builder config) {
    String value = jobs.text(key, null);
    try {
      config.acquisition(Acquisition.of(value));
    } catch (IllegalArgumentException e) {
      problems.add(jobs.get(key).path(), value, "must be skip-locked or optimistic");
    }
  }

  private static void ifSet(ConfigNode node, String key, Consumer<String> set) {
    if (node.has(key)) {
      set.accept(key);
    }
  }

  /** The handlers by job type, or null when one is broken. */
  private Map<String, JobsConfig.Handler> handlers(ConfigNode node, Set<String> flows) {
    Map<String, JobsConfig.Handler> handlers = new LinkedHashMap<>();
    if (!node.isPresent() || !node.node().isObject()) {
      return handlers; // a value that is not a map is the schema's to report
    }
    boolean broken = false;
    for (String type : (Iterable<String>) node.node()::fieldNames) {
      JobsConfig.Handler handler = handler(type, node.get(type), flows);
      if (handler == null) {
        broken = true;
      } else {
        handlers.put(type, handler);
      }
    }
    return broken ? null : handlers;
  }

  private JobsConfig.Handler handler(String type, ConfigNode entry, Set<String> flows) {
    if (problems.attempt(entry.path(), () -> NewJob.type(type)) == null) {
      return null;
    }
    Map.Entry<String, ConfigNode> kind = entry.single();
    if (kind == null) {
      return null;
    }
    ConfigNode value = kind.getValue();
    String name = value.node().asText();
    return switch (kind.getKey()) {
      case "flow" -> {
        if (!problems.knownName(value.path(), name, flows, "flow")) {
          yield null;
        }
        yield new JobsConfig.FlowHandler(name);
      }
      case "class" -> {
        Object instance =
            problems.attempt(
                "", () -> JavaComponentProcessor.instantiate(entry.path(), name, componentLoader));
        if (instance instanceof JobHandler handler) {
          yield new JobsConfig.ClassHandler(name, handler);
        }
        if (instance != null) {
          problems.add(value.path(), name, "does not implement " + JobHandler.class.getName());
        }
        yield null;
      }
      default -> {
        problems.add(
            value.path(), kind.getKey(), "is not a kind of job handler; use flow or class");
        yield null;
      }
    };
  }
}
