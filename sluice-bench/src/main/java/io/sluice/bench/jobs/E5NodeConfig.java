package io.sluice.bench.jobs;

import io.sluice.bench.CommandLineOptions;
import io.sluice.jobs.Acquisition;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How every node of one E5 run acquires and runs jobs: the driver names a configuration, turns it
 * into a node's command-line options ({@link #arguments()}) and the node reads them back ({@link
 * #from}), so the two never disagree on what a name means.
 *
 * @param acquisition optimistic or skip-locked
 * @param concurrency jobs running at once per node
 * @param prefetch jobs claimed ahead, or -1 for the executor's default
 * @param jobsPerCycle optimistic: candidates per cycle at backoff level 0
 * @param maxJobsPerCycle optimistic: candidates per cycle at most
 * @param backoffMillis optimistic: the first wait after lock failures, 0 for none
 * @param maxBackoffMillis optimistic: the longest wait
 * @param backoffFactor optimistic: how the wait and the candidates grow per level
 * @param poolSize connections in each node's storage pool
 * @param history how long the job store keeps finished jobs; zero keeps none (nothing written)
 */
record E5NodeConfig(
    Acquisition acquisition,
    int concurrency,
    int prefetch,
    int jobsPerCycle,
    int maxJobsPerCycle,
    long backoffMillis,
    long maxBackoffMillis,
    double backoffFactor,
    int poolSize,
    Duration history) {

  /** The configurations Camunda published (all optimistic), then skip-locked. */
  /** Connections per node: 2 writers and 2 for reads (the cluster test's choice). */
  static final int DEFAULT_POOL_SIZE = 4;

  static final List<String> NAMES =
      List.of("baseline", "48", "backoff-50", "backoff-70", "backoff-90", "skip-locked");

  /**
   * The configuration called {@code name} (one of {@link #NAMES}) with {@code concurrency} jobs at
   * once and {@code prefetch} ahead (-1: the executor's default).
   */
  static E5NodeConfig named(String name, int concurrency, int prefetch) {
    Acquisition optimistic = Acquisition.OPTIMISTIC;
    int pool = DEFAULT_POOL_SIZE;
    Duration history = JobStores.DEFAULT_HISTORY;
    return switch (name) {
      case "baseline" ->
          new E5NodeConfig(optimistic, concurrency, prefetch, 3, 48, 0, 250, 2, pool, history);
      case "48" ->
          new E5NodeConfig(optimistic, concurrency, prefetch, 48, 48, 0, 250, 2, pool, history);
      case "backoff-50" ->
          new E5NodeConfig(optimistic, concurrency, prefetch, 3, 48, 50, 250, 2, pool, history);
      case "backoff-70" ->
          new E5NodeConfig(optimistic, concurrency, prefetch, 3, 48, 70, 350, 2, pool, history);
      case "backoff-90" ->
          new E5NodeConfig(optimistic, concurrency, prefetch, 3, 48, 90, 450, 2, pool, history);
      case "skip-locked" ->
          new E5NodeConfig(
              Acquisition.SKIP_LOCKED, concurrency, prefetch, 3, 48, 0, 250, 2, pool, history);
      default ->
          throw new IllegalArgumentException(
              "unknown configuration '" + name + "'; known: " + String.join(",", NAMES));
    };
  }

  /** This configuration with {@code value} connections per node. */
  E5NodeConfig withPoolSize(int value) {
    return new E5NodeConfig(
        acquisition,
        concurrency,
        prefetch,
        jobsPerCycle,
        maxJobsPerCycle,
        backoffMillis,
        maxBackoffMillis,
        backoffFactor,
        value,
        history);
  }

  /** This configuration with the job store keeping its history for {@code value} (zero: none). */
  E5NodeConfig withHistory(Duration value) {
    return new E5NodeConfig(
        acquisition,
        concurrency,
        prefetch,
        jobsPerCycle,
        maxJobsPerCycle,
        backoffMillis,
        maxBackoffMillis,
        backoffFactor,
        poolSize,
        value);
  }

  /** Reads what {@link #arguments()} wrote. */
  static E5NodeConfig from(CommandLineOptions options) {
    return new E5NodeConfig(
        Acquisition.of(options.string("acquisition", "skip-locked")),
        options.integer("concurrency", 10),
        options.integer("prefetch", -1),
        options.integer("jobs-per-cycle", 3),
        options.integer("max-jobs-per-cycle", 48),
        options.integer("backoff-ms", 0),
        options.integer("max-backoff-ms", 250),
        options.decimal("backoff-factor", 2),
        options.integer("pool-size", DEFAULT_POOL_SIZE),
        Duration.ofHours(
            options.integer("history-hours", (int) JobStores.DEFAULT_HISTORY.toHours())));
  }

  /** This configuration as a node's {@code --name value} options. */
  List<String> arguments() {
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--acquisition", acquisition.key()));
    args.addAll(List.of("--concurrency", Integer.toString(concurrency)));
    args.addAll(List.of("--prefetch", Integer.toString(prefetch)));
    args.addAll(List.of("--jobs-per-cycle", Integer.toString(jobsPerCycle)));
    args.addAll(List.of("--max-jobs-per-cycle", Integer.toString(maxJobsPerCycle)));
    args.addAll(List.of("--backoff-ms", Long.toString(backoffMillis)));
    args.addAll(List.of("--max-backoff-ms", Long.toString(maxBackoffMillis)));
    args.addAll(List.of("--backoff-factor", Double.toString(backoffFactor)));
    args.addAll(List.of("--pool-size", Integer.toString(poolSize)));
    args.addAll(List.of("--history-hours", Long.toString(history.toHours())));
    return args;
  }

  /** The executor configuration of node {@code nodeId}. */
  JobExecutorConfig executor(String nodeId) {
    JobExecutorConfig.Builder builder =
        JobExecutorConfig.builder()
            .nodeId(nodeId)
            .concurrency(concurrency)
            .acquisition(acquisition)
            .jobsPerCycle(jobsPerCycle)
            .maxJobsPerCycle(maxJobsPerCycle)
            .acquisitionBackoff(Duration.ofMillis(backoffMillis))
            .maxAcquisitionBackoff(Duration.ofMillis(maxBackoffMillis))
            .acquisitionBackoffFactor(backoffFactor);
    if (prefetch >= 0) {
      builder.prefetch(prefetch);
    }
    return builder.build();
  }
}
