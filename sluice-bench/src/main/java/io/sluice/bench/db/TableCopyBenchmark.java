package io.sluice.bench.db;

import static io.sluice.bench.RunFiles.appendingCsv;
import static io.sluice.bench.RunFiles.loadAverage;
import static io.sluice.bench.RunFiles.number;

import io.sluice.batch.BatchJob;
import io.sluice.bench.CommandLineOptions;
import io.sluice.bench.CpuTime;
import io.sluice.bench.ScratchDirectory;
import io.sluice.bench.db.CopyTables.Content;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A batch job copying a table of orders to another on the local PostgreSQL (127.0.0.1:5432, user
 * {@code postgres}, database {@code test}, schema {@code bench_copy}), each row transformed on the
 * way (the country upper-cased, a total with tax): Sluice against Spring Batch's {@code
 * JdbcCursorItemReader} + {@code JdbcBatchItemWriter} and against a plain JDBC loop, in one run. A
 * scenario benchmark (a main), not JMH. Variants:
 *
 * <ul>
 *   <li>{@code jdbc}: one cursor, the transformation, batched inserts of 1,000 with a commit per
 *       batch ({@link JdbcCopy}): the floor.
 *   <li>{@code sluice} / {@code sluice-pg}: a batch job with the {@code query} input, a step and an
 *       aggregator of 1,000 whose sink is {@code db-bulk} ({@link SluiceCopy}), on the embedded
 *       SQLite store (the default) or the PostgreSQL store; {@code sluice-normal}: the embedded
 *       store with {@code synchronous=NORMAL}, its commits not forced to the disk (a diagnosis). A
 *       suffix {@code :B} sets the job's block size (100 unless set), as the chunk size of Spring
 *       Batch's variants: {@code sluice:1000}.
 *   <li>{@code spring:C} / {@code spring:CxT}: Spring Batch 5.2 with chunks of C items, on one
 *       thread or a task executor of T threads ({@link SpringBatchCopy}), its job repository JDBC
 *       on the same PostgreSQL.
 * </ul>
 *
 * <p>The source ({@code --rows} orders) is made once per run, untimed; the target is emptied before
 * each copy, untimed. Every copy is checked: as many rows as the source, each id once, and a
 * checksum of all their columns equal to the one PostgreSQL works out from the source with the
 * transformation in SQL; anything else stops the benchmark. Round 0 runs each variant once, cold
 * (recorded, left out of the medians); rounds 1 to {@code --runs} follow, the variants' order
 * reversed every other round. Every run appends a row to {@code --out}. Run from the repository
 * root after {@code ./mvnw -q -pl sluice-bench -am package -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-main.sh 2g io.sluice.bench.db.TableCopyBenchmark [--rows 1000000] [--runs 3]
 *     [--variants jdbc,sluice,sluice:1000,sluice-pg,spring:100,spring:1000,spring:5000,spring:1000x2,
 *     spring:1000x4]
 *     [--fetch-size 1000] [--out table-copy.csv]
 * </pre>
 */
public final class TableCopyBenchmark {

  static final String HEADER =
      "round,variant,rows,elapsed_s,rows_per_s,cpu_us_per_row,cpu_pct,others_cpu_pct,load1,"
          + "verified,ended";
  static final int BATCH = 1_000;

  private TableCopyBenchmark() {}

  /** What one copy did. */
  record Run(
      int round,
      String variant,
      long rows,
      double seconds,
      double cpuMicrosPerRow,
      double cpuPercent,
      double othersPercent) {
    double rowsPerSecond() {
      return rows / seconds;
    }
  }

  /** Makes the source, runs the variants, checks every copy and writes the rows. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    long rows = Long.parseLong(options.string("rows", "1000000"));
    int runs = options.integer("runs", 3);
    int fetchSize = options.integer("fetch-size", 1000);
    List<String> variants =
        options.list(
            "variants",
            "jdbc,sluice,sluice:1000,sluice-pg,spring:100,spring:1000,spring:5000,spring:1000x2,spring:1000x4");
    Path out = Path.of(options.string("out", "table-copy.csv"));
    options.requireAllRead();

    System.out.println("table copy " + String.join(" ", args) + "; load average " + loadAverage());
    long made = System.nanoTime();
    CopyTables.create(rows);
    Content expected = CopyTables.expected();
    System.out.printf(
        Locale.ROOT,
        "source: %,d rows made in %.1f s; expected %s%n",
        rows,
        (System.nanoTime() - made) / 1e9,
        expected);
    Map<String, List<Run>> warm = new LinkedHashMap<>();
    try (SpringBatchCopy spring = new SpringBatchCopy();
        PrintStream csv = appendingCsv(out, HEADER)) {
      for (int round = 0; round <= runs; round++) {
        List<String> order = new ArrayList<>(variants);
        if (round % 2 == 0 && round > 0) {
          Collections.reverse(order);
        }
        for (String variant : order) {
          Run run = measure(round, variant, rows, fetchSize, spring, expected);
          if (round > 0) {
            warm.computeIfAbsent(variant, k -> new ArrayList<>()).add(run);
          }
          String row = row(run);
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
      int round, String variant, long rows, int fetchSize, SpringBatchCopy spring, Content expected)
      throws Exception {
    CopyTables.emptyTarget();
    try (ScratchDirectory dir = ScratchDirectory.create("sluice-table-copy-")) {
      long cpu = CpuTime.ofThisProcess();
      long machine = CpuTime.ofMachine();
      long started = System.nanoTime();
      long written;
      if (variant.equals("jdbc")) {
        written = JdbcCopy.copy(fetchSize, BATCH);
      } else if (variant.startsWith("sluice")) {
        String[] setting = variant.split(":");
        String store =
            switch (setting[0]) {
              case "sluice" -> "sqlite";
              case "sluice-pg" -> "postgresql";
              case "sluice-normal" -> "sqlite-normal";
              default -> throw new IllegalArgumentException("unknown variant " + variant);
            };
        int blockSize =
            setting.length > 1 ? Integer.parseInt(setting[1]) : BatchJob.DEFAULT_BLOCK_SIZE;
        written = SluiceCopy.copy(store, dir.path(), fetchSize, blockSize, BATCH);
      } else if (variant.startsWith("spring:")) {
        String[] setting = variant.substring("spring:".length()).split("x");
        int chunk = Integer.parseInt(setting[0]);
        int threads = setting.length > 1 ? Integer.parseInt(setting[1]) : 1;
        written = spring.copy(chunk, threads, fetchSize);
      } else {
        throw new IllegalArgumentException(
            "unknown variant "
                + variant
                + "; jdbc, sluice[:B], sluice-pg[:B], sluice-normal[:B], spring:C or spring:CxT");
      }
      long nanos = System.nanoTime() - started;
      long ours = CpuTime.ofThisProcess() - cpu;
      long others = Math.max(0, CpuTime.ofMachine() - machine - ours);
      double wall = nanos * (double) Runtime.getRuntime().availableProcessors();
      Content copied = CopyTables.copied();
      if (written != rows || !copied.equals(expected)) {
        throw new IllegalStateException(
            variant
                + " reported "
                + written
                + " rows written of "
                + rows
                + "; the target holds "
                + copied
                + ", expected "
                + expected);
      }
      return new Run(
          round,
          variant,
          rows,
          nanos / 1e9,
          ours / 1e3 / rows,
          100 * ours / wall,
          100 * others / wall);
    }
  }

  private static void summary(Map<String, List<Run>> warm) {
    System.out.println();
    System.out.println("| variant | rows/s (median) | runs | CPU µs/row | others' CPU (most) |");
    System.out.println("| --- | ---: | --- | ---: | ---: |");
    for (Map.Entry<String, List<Run>> entry : warm.entrySet()) {
      List<Run> runs = entry.getValue();
      Run mid = sorted(runs).get(runs.size() / 2);
      System.out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %s | %.2f | %.0f%% |%n",
          entry.getKey(),
          mid.rowsPerSecond(),
          String.join(
              " / ",
              runs.stream()
                  .map(r -> String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond()))
                  .toList()),
          mid.cpuMicrosPerRow(),
          runs.stream().mapToDouble(Run::othersPercent).max().orElse(0));
    }
    List<String> springs = warm.keySet().stream().filter(v -> v.startsWith("spring")).toList();
    String bestSpring =
        springs.stream()
            .max(
                (a, b) ->
                    Double.compare(
                        sorted(warm.get(a)).get(warm.get(a).size() / 2).rowsPerSecond(),
                        sorted(warm.get(b)).get(warm.get(b).size() / 2).rowsPerSecond()))
            .orElse(null);
    System.out.println();
    System.out.println("Ratios of rows/s within each round, median over the rounds:");
    for (String sluice : warm.keySet().stream().filter(v -> v.startsWith("sluice")).toList()) {
      if (warm.containsKey("jdbc")) {
        System.out.println(ratio(warm, sluice, "jdbc"));
      }
      for (String other : springs) {
        System.out.println(
            ratio(warm, sluice, other) + (other.equals(bestSpring) ? " (best)" : ""));
      }
    }
  }

  private static String ratio(Map<String, List<Run>> warm, String a, String b) {
    List<Double> ratios = new ArrayList<>();
    List<Run> as = warm.get(a);
    List<Run> bs = warm.get(b);
    for (int i = 0; i < Math.min(as.size(), bs.size()); i++) {
      ratios.add(as.get(i).rowsPerSecond() / bs.get(i).rowsPerSecond());
    }
    Collections.sort(ratios);
    return String.format(
        Locale.ROOT,
        "%s / %s = %.2f (%s)",
        a,
        b,
        ratios.get(ratios.size() / 2),
        String.join(
            " / ", ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList()));
  }

  private static List<Run> sorted(List<Run> runs) {
    return runs.stream()
        .sorted((x, y) -> Double.compare(x.rowsPerSecond(), y.rowsPerSecond()))
        .toList();
  }

  private static String row(Run run) {
    return String.join(
        ",",
        Integer.toString(run.round()),
        run.variant(),
        Long.toString(run.rows()),
        number(run.seconds(), 3),
        number(run.rowsPerSecond(), 0),
        number(run.cpuMicrosPerRow(), 2),
        number(run.cpuPercent(), 1),
        number(run.othersPercent(), 1),
        loadAverage().split(" ")[0],
        "yes",
        Instant.now().toString());
  }
}
