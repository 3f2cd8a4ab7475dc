package io.sluice.bench.batch;

import static io.sluice.bench.RunFiles.appendingCsv;
import static io.sluice.bench.RunFiles.loadAverage;
import static io.sluice.bench.RunFiles.number;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchResult;
import io.sluice.bench.CommandLineOptions;
import io.sluice.bench.CpuTime;
import io.sluice.bench.ScratchDirectory;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark E1: Mule's threading-profile sweep on Sluice's batch engine. Each job ({@link E1Jobs}:
 * {@code cpu}, {@code io}, {@code throttled}, and the CPU-light {@code lite} when asked) runs with
 * each profile (fixed pools of 8, 16, 24 and 48 threads, and {@code auto}) on a fresh embedded
 * SQLite store in a temporary directory (synchronous=FULL, the default), and the rate is the
 * records processed over the instance's elapsed time. A scenario benchmark, not JMH. Run from the
 * repository root after {@code ./mvnw -q -pl sluice-bench -am package -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-e1.sh [--jobs cpu,io,throttled] [--profiles 8,16,24,48,auto]
 *     [--records 1000000] [--io-records 100000] [--latency-ms 5] [--cap 20]
 *     [--max-connections 256] [--hash-rounds 100] [--block-size 100] [--runs 1]
 *     [--warm-up-records 20000] [--sample-ms 250] [--max-others 100] [--out e1.csv]
 * </pre>
 *
 * <p>{@code --records} is the size of the {@code cpu} and {@code lite} jobs; {@code --io-records}
 * that of {@code io} and {@code throttled}, whose every record is a call of {@code --latency-ms} to
 * a local service (Netty, in a JVM of its own: {@link ServiceProcess}): one million such calls on 8
 * threads would take over ten minutes. {@code /capped} serves {@code --cap} calls at once and
 * answers 429 above that; the batch engine makes a throttled call again after a pause, so every 429
 * is a wasted call, counted by the service. The HTTP requester may hold {@code --max-connections}
 * connections, more than any profile uses, so the pool never sets the limit.
 *
 * <p>Every combination runs once per {@code --runs} round (the profiles in reverse order every
 * other round, so none always comes first); after a warm-up of each job on {@code
 * --warm-up-records}, unrecorded. Each round's rows go to {@code <out>-runs.csv} as they come; the
 * median rows to {@code --out} at the end; a sample every {@code --sample-ms} of each run (auto's
 * limit, the service's 429s, the machine's CPU) to {@code <out>-trace.csv}. Every row carries the
 * CPU time a record cost (this process and the service), the load average at its end and the share
 * of the machine's CPU other processes took during it; a run during which they took more than
 * {@code --max-others} percent is run again, up to three times ({@code discarded} counts them).
 */
public final class E1Benchmark {

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  static final String HEADER =
      "job,profile,records,latency_ms,cap,max_connections,hash_rounds,block_size,runs,"
          + "rps_median,rps_all,elapsed_s,processed,failed,calls,http_429,rate_429_pct,"
          + "late_429,limit_min,limit_median,limit_max,cpu_us_per_record,cpu_pct,service_cpu_pct,"
          + "others_cpu_pct,discarded,load1,ended";

  private E1Benchmark() {}

  /** What one run of one job with one profile did. */
  record Run(
      String job,
      String profile,
      long records,
      BatchResult result,
      ServiceProcess.Counts calls,
      long late429,
      String limits,
      double cpuMicrosPerRecord,
      double cpuPercent,
      double serviceCpuPercent,
      double othersPercent,
      int discarded,
      String load1,
      Instant ended) {

    /** The same run, after {@code count} runs were discarded because others took the machine. */
    Run discarded(int count) {
      return new Run(
          job,
          profile,
          records,
          result,
          calls,
          late429,
          limits,
          cpuMicrosPerRecord,
          cpuPercent,
          serviceCpuPercent,
          othersPercent,
          count,
          load1,
          ended);
    }

    double recordsPerSecond() {
      return result.recordsPerSecond();
    }

    long httpCalls() {
      return calls.latencyCalls() + calls.cappedCalls();
    }
  }

  /** Runs the jobs and profiles the options select and writes the CSVs. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    List<String> jobs = options.list("jobs", "cpu,io,throttled");
    List<String> profiles = options.list("profiles", "8,16,24,48,auto");
    long records = Long.parseLong(options.string("records", "1000000"));
    long ioRecords = Long.parseLong(options.string("io-records", "100000"));
    double latencyMillis = options.decimal("latency-ms", 5);
    int cap = options.integer("cap", 20);
    int maxConnections = options.integer("max-connections", 256);
    int hashRounds = options.integer("hash-rounds", 100);
    int blockSize = options.integer("block-size", BatchJob.DEFAULT_BLOCK_SIZE);
    int runs = options.integer("runs", 1);
    long warmUpRecords = Long.parseLong(options.string("warm-up-records", "20000"));
    long sampleMillis = options.integer("sample-ms", 250);
    double maxOthers = options.decimal("max-others", 100);
    Path out = Path.of(options.string("out", "e1.csv"));
    options.requireAllRead();

    String base = out.toString().replaceFirst("\\.csv$", "");
    Path runsOut = Path.of(base + "-runs.csv");
    Path traceOut = Path.of(base + "-trace.csv");
    boolean calls = jobs.stream().anyMatch(E1Jobs::callsService);
    System.out.println("E1 " + String.join(" ", args) + "; load average " + loadAverage());
    System.out.printf(
        Locale.ROOT,
        "jobs cpu, lite: %,d records; io, throttled: %,d records, each a call of %s ms"
            + " (%,d such calls on 8 threads would take %.0f s)%n",
        records,
        ioRecords,
        latencyMillis,
        records,
        records * latencyMillis / 1000 / 8);
    Map<String, List<Run>> all = new LinkedHashMap<>();
    try (ServiceProcess service = calls ? ServiceProcess.start(latencyMillis, cap) : null;
        PrintStream runsCsv = appendingCsv(runsOut, "run," + HEADER);
        PrintStream trace = appendingCsv(traceOut, RunTrace.HEADER)) {
      E1Jobs.Settings settings =
          new E1Jobs.Settings(
              service == null ? 0 : service.port(), maxConnections, hashRounds, blockSize);
      for (String job : jobs) {
        long warmUp = E1Jobs.callsService(job) ? warmUpRecords / 10 : warmUpRecords;
        for (String profile : List.of("auto", "16")) {
          measure(job, profile, warmUp, settings, service, sampleMillis);
        }
      }
      for (int round = 1; round <= runs; round++) {
        List<String> order = new ArrayList<>(profiles);
        if (round % 2 == 0) {
          Collections.reverse(order);
        }
        for (String job : jobs) {
          long count = E1Jobs.callsService(job) ? ioRecords : records;
          for (String profile : order) {
            Measured measured = measure(job, profile, count, settings, service, sampleMillis);
            int discarded = 0;
            while (measured.run().othersPercent() > maxOthers && discarded < 3) {
              // Other work took too much of the machine during this run: run it again.
              discarded++;
              System.out.printf(
                  Locale.ROOT,
                  "%s %s: others took %.0f%% of the machine, run again%n",
                  job,
                  profile,
                  measured.run().othersPercent());
              measured = measure(job, profile, count, settings, service, sampleMillis);
            }
            Run run = measured.run().discarded(discarded);
            all.computeIfAbsent(job + "," + profile, k -> new ArrayList<>()).add(run);
            String row = round + "," + row(run, List.of(run), settings, latencyMillis, cap);
            runsCsv.println(row);
            runsCsv.flush();
            measured.trace().csvLines(job + "," + profile + "," + round).forEach(trace::println);
            trace.flush();
            System.out.println(row);
          }
        }
      }
      writeMedians(out, all, settings, latencyMillis, cap);
    }
    System.out.println("done; load average " + loadAverage() + "; medians in " + out);
  }

  /** One row per job and profile: the run with the median rate, and the rates of all. */
  private static void writeMedians(
      Path out, Map<String, List<Run>> all, E1Jobs.Settings settings, double latencyMillis, int cap)
      throws IOException {
    try (PrintStream csv = appendingCsv(out, HEADER)) {
      for (List<Run> runsOf : all.values()) {
        List<Run> sorted =
            runsOf.stream().sorted(Comparator.comparingDouble(Run::recordsPerSecond)).toList();
        csv.println(row(sorted.get(sorted.size() / 2), runsOf, settings, latencyMillis, cap));
      }
    }
  }

  /** A run and its trace. */
  private record Measured(Run run, RunTrace trace) {}

  private static Measured measure(
      String job,
      String profile,
      long records,
      E1Jobs.Settings settings,
      ServiceProcess service,
      long sampleMillis)
      throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ScratchDirectory dir = ScratchDirectory.create("sluice-e1-");
        Storage storage =
            Storages.open(
                StorageConfig.builder().dataDir(dir.path()).build(),
                VALUES,
                registry,
                Clock.systemUTC(),
                E1Benchmark.class.getClassLoader())) {
      Application application =
          Application.builder()
              .storage(storage)
              .storedValues(VALUES)
              .meterRegistry(registry)
              .build();
      try {
        BatchJob batch = E1Jobs.job(job, profile, records, settings);
        ServiceProcess.Counts before =
            service == null ? ServiceProcess.Counts.NONE : service.counts();
        long cpu = CpuTime.ofThisProcess();
        long serviceCpu = service == null ? 0 : CpuTime.ofProcess(service.pid());
        long machine = CpuTime.ofMachine();
        long started = System.nanoTime();
        BatchEngine.Execution execution = BatchEngine.of(application).start(batch);
        RunTrace trace =
            RunTrace.start(
                registry, E1Jobs.flowName(job), profile, execution, service, sampleMillis);
        BatchResult result = execution.result().join();
        trace.close();
        double wall =
            (System.nanoTime() - started) * (double) Runtime.getRuntime().availableProcessors();
        long ours = CpuTime.ofThisProcess() - cpu;
        long theirs = service == null ? 0 : CpuTime.ofProcess(service.pid()) - serviceCpu;
        long others = Math.max(0, CpuTime.ofMachine() - machine - ours - theirs);
        ServiceProcess.Counts calls =
            service == null ? ServiceProcess.Counts.NONE : service.counts().since(before);
        if (!result.completed()) {
          throw new IllegalStateException(
              job + " with " + profile + " did not complete: " + result);
        }
        Run run =
            new Run(
                job,
                profile,
                records,
                result,
                calls,
                trace.late429(),
                trace.limitSummary(),
                (ours + theirs) / 1e3 / Math.max(1, result.processed()),
                100 * ours / wall,
                100 * theirs / wall,
                100 * others / wall,
                0,
                loadAverage().split(" ")[0],
                Instant.now());
        return new Measured(run, trace);
      } finally {
        application.close();
      }
    }
  }

  /**
   * A CSV line for {@code run}, with the rates of {@code runs} (all the runs it is the median of).
   */
  private static String row(
      Run run, List<Run> runs, E1Jobs.Settings settings, double latencyMillis, int cap) {
    boolean calls = E1Jobs.callsService(run.job());
    boolean capped = run.job().equals("throttled");
    BatchResult result = run.result();
    return String.join(
        ",",
        run.job(),
        run.profile(),
        Long.toString(run.records()),
        calls ? number(latencyMillis, 1) : "",
        capped ? Integer.toString(cap) : "",
        calls ? Integer.toString(settings.maxConnections()) : "",
        run.job().equals("cpu") ? Integer.toString(settings.hashRounds()) : "",
        Integer.toString(settings.blockSize()),
        Integer.toString(runs.size()),
        number(run.recordsPerSecond(), 0),
        String.join(" ", runs.stream().map(r -> number(r.recordsPerSecond(), 0)).toList()),
        number(result.elapsed().toMillis() / 1e3, 2),
        Long.toString(result.processed()),
        Long.toString(result.failed()),
        calls ? Long.toString(run.httpCalls()) : "",
        capped ? Long.toString(run.calls().capped429()) : "",
        capped
            ? number(100.0 * run.calls().capped429() / Math.max(1, run.calls().cappedCalls()), 3)
            : "",
        capped ? Long.toString(run.late429()) : "",
        run.limits(),
        number(run.cpuMicrosPerRecord(), 2),
        number(run.cpuPercent(), 1),
        calls ? number(run.serviceCpuPercent(), 1) : "",
        number(runs.stream().mapToDouble(Run::othersPercent).max().orElse(0), 1),
        Integer.toString(runs.stream().mapToInt(Run::discarded).sum()),
        run.load1(),
        run.ended().toString());
  }
}
