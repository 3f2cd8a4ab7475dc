package io.sluice.bench.batch;

import static io.sluice.bench.RunFiles.appendingCsv;
import static io.sluice.bench.RunFiles.loadAverage;
import static io.sluice.bench.RunFiles.number;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchOutput;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchStep;
import io.sluice.bench.CommandLineOptions;
import io.sluice.bench.CpuTime;
import io.sluice.bench.ScratchDirectory;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark E1 as batch users run it (the job Spring Batch users measure): a CSV file of orders
 * ({@code id,name,amount,date}, {@link CsvOrders}) read with {@link BatchInput#csv}, each record
 * transformed in one step (the name upper-cased, the total with tax worked out in BigDecimal), and
 * written with {@link BatchOutput#csv} — on a fresh embedded SQLite store (WAL, synchronous=FULL,
 * the default) per run, blocks of 100, {@code auto} unless a profile is a number of threads. The
 * baseline, in the same run: a plain-Java loop (BufferedReader, the same transformation,
 * BufferedWriter). After every run the output is verified line by line against the expected line of
 * each order; a missing, extra or wrong line fails the benchmark. A scenario benchmark, not JMH.
 * Run from the repository root after {@code ./mvnw -q -pl sluice-bench -am package -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-e1-csv.sh [--records 1000000] [--variants sluice,plain] [--runs 3]
 *     [--block-size 100] [--out e1-csv.csv]
 * </pre>
 *
 * <p>A variant is {@code plain}, {@code sluice} ({@code auto}) or {@code sluice:N} (N threads). The
 * first run of each variant (round 0, the variants in the order given) is the cold one, in a JVM
 * that ran nothing before: it is recorded as such, not hidden. Rounds 1 to {@code --runs} follow,
 * the variants in reverse order every other round; the summary gives the median of those, and the
 * ratio of each Sluice variant to the plain loop. Every run appends a row to {@code --out}: its
 * rate, elapsed time, the CPU time a record cost, and the share of the machine other processes took
 * meanwhile.
 */
public final class E1CsvBenchmark {

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  static final String HEADER =
      "round,variant,records,block_size,elapsed_s,rps,cpu_us_per_record,cpu_pct,others_cpu_pct,"
          + "load1,verified,ended";

  private E1CsvBenchmark() {}

  /** What one run did. */
  record Run(
      int round,
      String variant,
      long records,
      double seconds,
      double cpuMicrosPerRecord,
      double cpuPercent,
      double othersPercent) {
    double recordsPerSecond() {
      return records / seconds;
    }
  }

  /** Generates the input, runs the variants, verifies every output and writes the rows. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    long records = Long.parseLong(options.string("records", "1000000"));
    List<String> variants = options.list("variants", "sluice,plain");
    int runs = options.integer("runs", 3);
    int blockSize = options.integer("block-size", BatchJob.DEFAULT_BLOCK_SIZE);
    Path out = Path.of(options.string("out", "e1-csv.csv"));
    options.requireAllRead();

    System.out.println("E1 csv " + String.join(" ", args) + "; load average " + loadAverage());
    Map<String, List<Run>> warm = new LinkedHashMap<>();
    try (ScratchDirectory dir = ScratchDirectory.create("sluice-e1-csv-");
        PrintStream csv = appendingCsv(out, HEADER)) {
      Path input = dir.path().resolve("orders.csv");
      long generated = System.nanoTime();
      CsvOrders.write(input, records);
      System.out.printf(
          Locale.ROOT,
          "input: %,d lines, %,d bytes, written in %.1f s%n",
          records,
          Files.size(input),
          (System.nanoTime() - generated) / 1e9);
      for (int round = 0; round <= runs; round++) {
        List<String> order = new ArrayList<>(variants);
        if (round % 2 == 0 && round > 0) {
          Collections.reverse(order);
        }
        for (String variant : order) {
          Run run = measure(round, variant, input, records, blockSize, dir.path());
          if (round > 0) {
            warm.computeIfAbsent(variant, k -> new ArrayList<>()).add(run);
          }
          String row = row(run, blockSize);
          csv.println(row);
          csv.flush();
          System.out.println(row);
        }
      }
    }
    summary(warm);
    System.out.println("done; load average " + loadAverage() + "; rows in " + out);
  }

  private static Run measure(
      int round, String variant, Path input, long records, int blockSize, Path scratch)
      throws Exception {
    try (ScratchDirectory dir = ScratchDirectory.create("sluice-e1-csv-run-")) {
      Path output = dir.path().resolve("orders-out.csv");
      long cpu = CpuTime.ofThisProcess();
      long machine = CpuTime.ofMachine();
      long started = System.nanoTime();
      long written;
      if (variant.equals("plain")) {
        written = CsvOrders.plain(input, output);
      } else if (variant.startsWith("sluice")) {
        written = sluice(variant, input, output, records, blockSize, dir.path().resolve("store"));
      } else {
        throw new IllegalArgumentException(
            "unknown variant " + variant + "; plain, sluice or sluice:N");
      }
      long nanos = System.nanoTime() - started;
      long ours = CpuTime.ofThisProcess() - cpu;
      long others = Math.max(0, CpuTime.ofMachine() - machine - ours);
      double wall = nanos * (double) Runtime.getRuntime().availableProcessors();
      if (written != records) {
        throw new IllegalStateException(variant + " wrote " + written + " of " + records);
      }
      CsvOrders.verify(output, records);
      return new Run(
          round,
          variant,
          records,
          nanos / 1e9,
          ours / 1e3 / records,
          100 * ours / wall,
          100 * others / wall);
    }
  }

  /** The Sluice job on a fresh embedded store under {@code store}; returns the records written. */
  private static long sluice(
      String variant, Path input, Path output, long records, int blockSize, Path store)
      throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Storage storage =
            Storages.open(
                StorageConfig.builder().dataDir(store).build(),
                VALUES,
                registry,
                Clock.systemUTC(),
                E1CsvBenchmark.class.getClassLoader());
        Application application =
            Application.builder()
                .storage(storage)
                .storedValues(VALUES)
                .meterRegistry(registry)
                .build()) {
      BatchJob.Builder job =
          BatchJob.builder("e1-csv")
              .input(BatchInput.csv(input))
              .output(BatchOutput.csv(output, CsvOrders.OUTPUT_COLUMNS))
              .blockSize(blockSize)
              .step(
                  BatchStep.builder("transform")
                      .processor(Processor.of(ProcessingType.CPU_LITE, CsvOrders::transform))
                      .build());
      if (variant.startsWith("sluice:")) {
        job.threads(Integer.parseInt(variant.substring("sluice:".length())));
      }
      BatchResult result = BatchEngine.of(application).start(job.build()).result().join();
      if (!result.completed() || result.failed() != 0) {
        throw new IllegalStateException(variant + " did not complete cleanly: " + result);
      }
      return result.successful();
    }
  }

  private static void summary(Map<String, List<Run>> warm) {
    List<Run> plain = warm.get("plain");
    double plainMedian = plain == null ? 0 : median(plain);
    System.out.println();
    System.out.println(
        "| variant | records/s (median) | runs | vs plain | CPU µs/record | others' CPU (most) |");
    System.out.println("| --- | ---: | --- | ---: | ---: | ---: |");
    for (Map.Entry<String, List<Run>> entry : warm.entrySet()) {
      List<Run> runs = entry.getValue();
      double median = median(runs);
      Run mid =
          runs.stream()
              .sorted((a, b) -> Double.compare(a.recordsPerSecond(), b.recordsPerSecond()))
              .toList()
              .get(runs.size() / 2);
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %s | %s | %.2f | %.0f%% |%n",
          entry.getKey(),
          median,
          String.join(
              " / ", runs.stream().map(r -> String.format("%,.0f", r.recordsPerSecond())).toList()),
          plainMedian == 0 ? "-" : String.format(Locale.ROOT, "%.2f×", median / plainMedian),
          mid.cpuMicrosPerRecord(),
          runs.stream().mapToDouble(Run::othersPercent).max().orElse(0));
    }
  }

  private static double median(List<Run> runs) {
    List<Double> rates = runs.stream().map(Run::recordsPerSecond).sorted().toList();
    return rates.get(rates.size() / 2);
  }

  private static String row(Run run, int blockSize) {
    return String.join(
        ",",
        Integer.toString(run.round()),
        run.variant(),
        Long.toString(run.records()),
        Integer.toString(blockSize),
        number(run.seconds(), 3),
        number(run.recordsPerSecond(), 0),
        number(run.cpuMicrosPerRecord(), 2),
        number(run.cpuPercent(), 1),
        number(run.othersPercent(), 1),
        loadAverage().split(" ")[0],
        "yes",
        Instant.now().toString());
  }
}
