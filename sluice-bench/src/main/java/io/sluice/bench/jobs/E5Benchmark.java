package io.sluice.bench.jobs;

import io.sluice.bench.CommandLineOptions;
import io.sluice.core.store.Storage;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Benchmark E5, clustered job acquisition (Camunda 7.4's published experiment): 1 to 5 executor
 * nodes, each an {@link E5Node} process, share one PostgreSQL and run the same seeded workload
 * under the five published {@code optimistic} configurations and under {@code skip-locked}. A
 * scenario benchmark, not JMH. Run from the repository root after {@code ./mvnw -q -pl sluice-bench
 * -am package -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-e5.sh [--mode work|noop|latency] [--nodes 1,2,3,4,5]
 *     [--configs baseline,48,backoff-50,backoff-70,backoff-90,skip-locked] [--jobs 50000]
 *     [--threads 10] [--prefetch -1] [--runs 1] [--out e5.csv] [--database sluice_e5]
 *     [--schema e5] [--seed 5] [--interval-ms 20] [--warm-up-jobs 2000|250] [--analyze true] [--vacuum-s 0] [--pool-size 4] [--node-jvm-options '...']
 *     [--keyed-percent 0] [--keys 100] [--history-hours 168]
 * </pre>
 *
 * <p>{@code work} (the published experiment): each job's work is N(80 ms, 25 ms) clipped at 0,
 * drawn from a {@link Random} seeded with {@code --seed}, so every run has the same workload; the
 * ideal makespan is the sum of the work over nodes × threads. For each run: a fresh schema, the
 * nodes started and ready, {@code --warm-up-jobs} no-op jobs run through them unmeasured (2,000;
 * their JIT compiles meanwhile), the jobs created in one {@code createAll} commit; T0 is when it
 * returned; the makespan ends when {@code sluice_job} is empty (polled every {@value #POLL_MILLIS}
 * ms). The creation is timed too ({@code create_s}, {@code create_jobs_per_s}: the jobs over the
 * time {@code createAll} took, its commit included), beside the makespan, not in it. CPU times are
 * read at T0 and at the end, while the nodes still run; transactions are the database's ({@code
 * pg_stat_database}) after the nodes stopped, less the driver's own. One CSV row per run. The nodes
 * also time their sleeps: on a busy machine a sleep wakes late, so {@code over_slept_ideal_pct}
 * compares the makespan with the ideal of the work as it really took.
 *
 * <p>{@code noop}: the same with no work (payload 0), 200,000 jobs by default: jobs per second.
 * {@code --threads} (a list) sets each node's concurrency, {@code --prefetch} its prefetch. {@code
 * --keyed-percent P} gives P of every 100 jobs an exclusive key, {@code --keys} of them taken in
 * turn (the configuration's name in the results says so): what exclusive keys cost. {@code
 * --history-hours 0} runs the nodes and the driver's store with no job history ({@code
 * sluice.jobs.history: 0ms}; the name ends in {@code +no-history}), 168 (7 days, the default) with
 * it: what the history costs.
 *
 * <p>{@code latency}: an idle cluster; one job due now every {@code --interval-ms}, {@code --jobs}
 * of them (500 by default), after as many unmeasured ones as {@code --warm-up-jobs} (the nodes' JIT
 * compiles the claim path meanwhile); the nodes' due-to-start latencies merged: p50, p99, max. Due
 * times are stored in whole milliseconds, so a latency reads up to 1 ms long.
 *
 * <p>{@code --analyze true} (the default) analyzes the job tables right after T0: this server runs
 * without autovacuum, and on a table never analyzed the planner sorts every waiting job for each
 * claim (48 ms per optimistic candidate select at 29,000 waiting jobs, against 1 ms with
 * statistics), which a live database with autovacuum would not. {@code --vacuum-s N} also vacuums
 * them every N seconds, as autovacuum would; 0 (the default) never does, so that the claims walk
 * past the index entries of the jobs already done.
 *
 * <p>The database is {@code sluice_e5} (made when missing), not the shared {@code test}: other
 * sessions' tests run there, and its transaction counts would be theirs too. The CPU of every
 * {@code postgres} process is still the whole server's; {@code backends_cpu_s} is only the backends
 * serving the nodes.
 */
public final class E5Benchmark {

  static final int POLL_MILLIS = 100;

  static final String LATENCY_HEADER =
      "config,nodes,threads,jobs,interval_ms,p50_ms,p90_ms,p99_ms,max_ms,mean_ms,"
          + "statements_per_job,attempts_per_job,lock_failures,load1";

  private final E5Database db;
  private final int prefetch;
  private final long seed;
  private final int intervalMillis;
  private final int warmUpJobs;
  private final boolean analyze;
  private final Duration vacuumEvery;
  private final int poolSize;
  private final String jvmOptions;
  private final Path logs;
  private final int keyedPercent;
  private final int keys;
  private final Duration history;

  private E5Benchmark(CommandLineOptions options, boolean latency) {
    db = new E5Database(options.string("database", "sluice_e5"), options.string("schema", "e5"));
    prefetch = options.integer("prefetch", -1);
    seed = options.integer("seed", 5);
    intervalMillis = options.integer("interval-ms", 20);
    warmUpJobs = options.integer("warm-up-jobs", latency ? 250 : 2000);
    analyze = Boolean.parseBoolean(options.string("analyze", "true"));
    vacuumEvery = Duration.ofSeconds(options.integer("vacuum-s", 0));
    poolSize = options.integer("pool-size", 4);
    jvmOptions = options.string("node-jvm-options", "");
    keyedPercent = options.integer("keyed-percent", 0);
    keys = options.integer("keys", 100);
    history =
        Duration.ofHours(
            options.integer("history-hours", (int) JobStores.DEFAULT_HISTORY.toHours()));
    if (keyedPercent < 0 || keyedPercent > 100 || keys < 1) {
      throw new IllegalArgumentException(
          "--keyed-percent is 0 to 100 and --keys at least 1; got "
              + keyedPercent
              + " and "
              + keys);
    }
    logs = Path.of(System.getProperty("java.io.tmpdir"), "sluice-e5-logs");
  }

  /** Runs every combination the options select, appending a row per run to {@code --out}. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    String mode = options.string("mode", "work");
    boolean latency = mode.equals("latency");
    if (!List.of("work", "noop", "latency").contains(mode)) {
      throw new IllegalArgumentException("--mode is work, noop or latency; got " + mode);
    }
    List<String> configs =
        options.list(
            "configs", mode.equals("work") ? String.join(",", E5NodeConfig.NAMES) : "skip-locked");
    List<Integer> nodes =
        integers(options.list("nodes", mode.equals("work") ? "1,2,3,4,5" : "1,5"));
    List<Integer> threads = integers(options.list("threads", mode.equals("noop") ? "64" : "10"));
    int defaultJobs = latency ? 500 : mode.equals("noop") ? 200_000 : 50_000;
    int jobs = options.integer("jobs", defaultJobs);
    int runs = options.integer("runs", 1);
    Path out = Path.of(options.string("out", "e5-" + mode + ".csv"));
    E5Benchmark bench = new E5Benchmark(options, latency);
    options.requireAllRead();
    for (String config : configs) {
      E5NodeConfig.named(config, 1, -1); // an unknown name fails now, not after an hour of runs
    }
    if (mode.equals("work") && jobs < 50_000) {
      System.out.printf(
          "note: %,d jobs, not the published 50,000: scaled down so the set fits (the ideal"
              + " makespan scales with it)%n",
          jobs);
    }
    bench.db.ensureExists();
    boolean fresh = !Files.exists(out);
    String header = latency ? LATENCY_HEADER : E5Run.HEADER;
    if (!fresh && !Files.readAllLines(out).getFirst().equals(header)) {
      throw new IllegalArgumentException(
          out
              + " has other columns (an older E5Benchmark, or another mode wrote it); give --out a"
              + " new file");
    }
    try (PrintStream csv =
        new PrintStream(
            Files.newOutputStream(out, StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
      if (fresh) {
        csv.println(header);
      }
      for (int run = 1; run <= runs; run++) {
        for (String config : configs) {
          for (int t : threads) {
            for (int n : nodes) {
              System.out.printf(
                  "%s run %d/%d: %s, %d node(s) × %d threads, %,d jobs; load %s%n",
                  mode, run, runs, config, n, t, jobs, loadAverage());
              try {
                csv.println(
                    latency
                        ? bench.latency(config, n, t, jobs)
                        : bench.throughput(config, n, t, jobs, mode.equals("noop")));
                csv.flush();
              } catch (IllegalStateException e) {
                System.out.println("  FAILED, no row written: " + e.getMessage());
              }
            }
          }
        }
      }
    }
  }

  private static List<Integer> integers(List<String> values) {
    return values.stream().map(String::trim).map(Integer::valueOf).toList();
  }

  private E5Cluster cluster(String config, int nodes, int threads, boolean latency)
      throws IOException, InterruptedException {
    E5NodeConfig node =
        E5NodeConfig.named(config, threads, prefetch).withPoolSize(poolSize).withHistory(history);
    E5Cluster cluster = new E5Cluster(nodes, db.nodeUrl(), node, latency, jvmOptions, logs);
    try {
      cluster.awaitReady();
    } catch (RuntimeException | InterruptedException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * The seeded workload: {@code count} jobs whose payload is the work in milliseconds, N(80, 25)
   * clipped at 0, or 0 for no-op jobs.
   */
  private List<NewJob> workload(int count, boolean noop) {
    Random random = new Random(seed);
    List<NewJob> jobs = new ArrayList<>(count);
    int keyed = 0;
    for (int i = 0; i < count; i++) {
      int work = noop ? 0 : (int) Math.max(0, Math.round(80 + 25 * random.nextGaussian()));
      NewJob job = NewJob.of(E5Node.TYPE, work);
      // --keyed-percent of every 100 jobs carry an exclusive key, the keys taken in turn.
      jobs.add(i % 100 < keyedPercent ? job.withExclusiveKey("k" + keyed++ % keys) : job);
    }
    return jobs;
  }

  /** The driver's job store, which creates the jobs: keeping history as the nodes do. */
  private JobStore store(Storage storage) {
    return JobStores.open(
        storage, E5Node.VALUES, ClaimOrder.PRIORITY, JobStores.DEFAULT_PRIORITY_AGING, history);
  }

  /** The configuration's name in the results, with the share of keyed jobs when there are. */
  private String label(String config) {
    return (keyedPercent == 0 ? config : config + "+keyed" + keyedPercent + "%/" + keys)
        + (history.isZero() ? "+no-history" : "");
  }

  /** One work or no-op run: the makespan and what it cost; returns its CSV row. */
  private String throughput(String config, int nodes, int threads, int count, boolean noop)
      throws Exception {
    List<NewJob> jobs = workload(count, noop);
    long workMillis = jobs.stream().mapToLong(j -> (Integer) j.payload()).sum();
    double ideal = workMillis / 1000.0 / (nodes * threads);
    Duration timeout = Duration.ofSeconds(Math.round(ideal * 10 + count / 200.0 + 120));
    String load = loadAverage();
    db.freshSchema();
    NodeCounters counters;
    long startNanos;
    long endNanos;
    ClusterCpu start;
    ClusterCpu end;
    long transactions;
    double createSeconds;
    try (Storage storage = db.storage();
        E5Cluster cluster = cluster(config, nodes, threads, false)) {
      JobStore store = store(storage);
      NodeCounters warmUp = warmUp(store, cluster);
      long creating = System.nanoTime();
      store.createAll(jobs);
      startNanos = System.nanoTime();
      createSeconds = (startNanos - creating) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "  created in one commit in %.2f s, %,.0f jobs/s%n",
          createSeconds,
          count / createSeconds);
      // The readings go through database postgres: the driver's own transactions in the
      // benchmark's database are its polls, its ANALYZE and its VACUUMs, counted here.
      int driverTransactions = 0;
      long transactionsBefore;
      try (Connection stats = db.stats();
          Connection c = db.connect()) {
        start = ClusterCpu.now(stats, E5Database.NODE_APPLICATION, cluster.pids());
        transactionsBefore = db.transactions(stats);
        if (analyze) {
          E5Database.execute(c, "ANALYZE sluice_job, sluice_job_payload");
          driverTransactions++;
        }
        long nextVacuum = startNanos + vacuumEvery.toNanos();
        while (E5Database.jobsLeft(c) > 0) {
          driverTransactions++;
          if (!vacuumEvery.isZero() && System.nanoTime() >= nextVacuum) {
            E5Database.execute(c, "VACUUM (ANALYZE) sluice_job, sluice_job_payload");
            driverTransactions++;
            nextVacuum += vacuumEvery.toNanos();
          }
          cluster.requireAlive();
          if (System.nanoTime() - startNanos > timeout.toNanos()) {
            throw new IllegalStateException(
                "jobs left after " + timeout.toSeconds() + " s; the nodes' logs are in " + logs);
          }
          Thread.sleep(POLL_MILLIS);
        }
        endNanos = System.nanoTime();
        end = ClusterCpu.now(stats, E5Database.NODE_APPLICATION, cluster.pids());
        driverTransactions++; // the last poll, which found none left
      }
      counters = cluster.stop().counters().minus(warmUp);
      transactions = db.transactionsAfterStop() - transactionsBefore - driverTransactions;
    }
    double makespan = (endNanos - startNanos) / 1e9;
    double dbCpu = (end.postgres() - start.postgres()) / 1e9;
    double nodesCpu = (end.nodes() - start.nodes()) / 1e9;
    double driverCpu = (end.driver() - start.driver()) / 1e9;
    double machine = (end.machine() - start.machine()) / 1e9;
    double others =
        100
            * (machine - dbCpu - nodesCpu - driverCpu)
            / (makespan * Runtime.getRuntime().availableProcessors());
    E5Run run =
        new E5Run(
            label(config),
            nodes,
            threads,
            E5NodeConfig.named(config, threads, prefetch).executor("x").prefetch(),
            count,
            noop,
            workMillis,
            makespan,
            counters,
            transactions,
            new E5Run.Cpu(dbCpu, end.backendsSince(start) / 1e9, nodesCpu, others),
            load,
            vacuumEvery.toSeconds(),
            createSeconds);
    System.out.println(run.summary());
    return run.csv();
  }

  /** One latency run: jobs due now, one every interval, on an idle cluster; returns its row. */
  private String latency(String config, int nodes, int threads, int count) throws Exception {
    String load = loadAverage();
    db.freshSchema();
    E5Cluster.Report report;
    try (Storage storage = db.storage();
        E5Cluster cluster = cluster(config, nodes, threads, true);
        Connection c = db.connect()) {
      JobStore store = store(storage);
      // Fresh JVMs compile the claim path during the first jobs: those are not measured.
      trickle(store, warmUpJobs, E5Node.WARM_UP);
      awaitNoJobs(c, cluster);
      Thread.sleep(1000); // idle: the nodes have settled into waiting
      trickle(store, count, 0);
      awaitNoJobs(c, cluster);
      report = cluster.stop();
    }
    long[] micros = report.latencies();
    if (micros.length != count) {
      throw new IllegalStateException(micros.length + " latencies for " + count + " jobs");
    }
    // Per job the nodes ran, the warm-up's included: the counters cover the nodes' whole life.
    NodeCounters counters = report.counters();
    double[] figures = {
      percentile(micros, 50),
      percentile(micros, 90),
      percentile(micros, 99),
      percentile(micros, 100),
      Arrays.stream(micros).average().orElse(0) / 1000,
      counters.statements() / (double) counters.executed(),
      counters.attempts() / (double) counters.executed()
    };
    System.out.printf(
        Locale.ROOT,
        "  %-11s %d node(s): due-to-start p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms"
            + " (mean %.2f); statements/job %.2f, attempts/job %.2f%n",
        config,
        nodes,
        figures[0],
        figures[1],
        figures[2],
        figures[3],
        figures[4],
        figures[5],
        figures[6]);
    StringBuilder row =
        new StringBuilder(String.join(",", config, "" + nodes, "" + threads, "" + count));
    row.append(',').append(intervalMillis);
    for (double figure : figures) {
      row.append(String.format(Locale.ROOT, ",%.3f", figure));
    }
    return row.append(',').append(counters.lockFailures()).append(',').append(load).toString();
  }

  /**
   * Runs the warm-up's no-op jobs through the nodes, all at once: fresh JVMs compile the claim and
   * completion paths meanwhile, which on 2 cores shared by up to 5 nodes and the database otherwise
   * slows the measured run's first seconds. Returns the nodes' counters after it.
   */
  private NodeCounters warmUp(JobStore store, E5Cluster cluster) throws Exception {
    List<NewJob> jobs = new ArrayList<>(warmUpJobs);
    for (int i = 0; i < warmUpJobs; i++) {
      jobs.add(NewJob.of(E5Node.TYPE, E5Node.WARM_UP));
    }
    store.createAll(jobs);
    try (Connection c = db.connect()) {
      awaitNoJobs(c, cluster);
    }
    Thread.sleep(1000); // the last completions written, the nodes idle
    return cluster.counters();
  }

  /** Creates {@code count} jobs due now with {@code payload}, one every interval, not in bursts. */
  private void trickle(JobStore store, int count, int payload) {
    long interval = Duration.ofMillis(intervalMillis).toNanos();
    long first = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long due = first + i * interval;
      for (long now = System.nanoTime(); now < due; now = System.nanoTime()) {
        LockSupport.parkNanos(due - now);
      }
      store.create(NewJob.of(E5Node.TYPE, payload));
    }
  }

  private static void awaitNoJobs(Connection c, E5Cluster cluster)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (E5Database.jobsLeft(c) > 0) {
      cluster.requireAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("jobs left 60 s after the last was created");
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** The nearest-rank percentile of sorted microseconds, in milliseconds. */
  static double percentile(long[] sortedMicros, double percent) {
    int rank = (int) Math.ceil(percent / 100 * sortedMicros.length);
    return sortedMicros[Math.max(0, rank - 1)] / 1000.0;
  }

  /** The 1-minute load average, for the record of how busy the shared machine was. */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
