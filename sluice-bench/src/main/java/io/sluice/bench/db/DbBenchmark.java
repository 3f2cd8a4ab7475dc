package io.sluice.bench.db;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.db.DataSourceConfig;
import io.sluice.db.DataSources;
import io.sluice.db.DbBulkProcessor;
import io.sluice.db.DbSelectProcessor;
import io.sluice.db.DbStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The database connector against plain JDBC on the local PostgreSQL (127.0.0.1:5432, user {@code
 * postgres}, database {@code test}), in one run, the same driver and URL for both:
 *
 * <ul>
 *   <li>{@code bulkInsert}: 1,000 rows (an id, a text, a number, given as maps) inserted in one
 *       transaction. {@code runner=sluice}: a flow of one {@code db-bulk} (batch size 1,000) sent
 *       the list; {@code runner=jdbc}: a hand-written loop of {@code setObject}/{@code addBatch},
 *       one {@code executeBatch} and a commit on one connection. Into an unlogged table emptied
 *       before each iteration. One op = 1,000 rows.
 *   <li>{@code streamedSelect}: 100,000 rows of four columns read with a fetch size of 1,000.
 *       {@code runner=sluice}: a flow of a streaming {@code db-select} and a {@code foreach} whose
 *       CPU_LITE processor counts each row (a plain field, as the loop counts in a local); {@code
 *       runner=jdbc}: a plain {@code ResultSet} loop reading every column of every row (no map
 *       made: the harsher baseline). One op = 100,000 rows.
 * </ul>
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar DbBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class DbBenchmark {

  static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
  static final String USER = "postgres";
  static final int BULK_ROWS = 1_000;
  static final int SELECT_ROWS = 100_000;
  static final int FETCH = 1_000;

  @Param({"jdbc", "sluice"})
  public String runner;

  private final String bulkTable = "bench_bulk_" + ProcessHandle.current().pid();
  private final String selectTable = "bench_select_" + ProcessHandle.current().pid();
  // A plain count, as the jdbc side's: the foreach runs its elements one after the other, and the
  // send's completion makes the last count seen here. The LongAdder before cost a CAS a row (its
  // processor was 5% of the sluice side's JFR samples), which the jdbc side does not pay.
  private long counted;
  private List<Map<String, Object>> rows;
  private Connection jdbc;
  private Application app;

  @Setup(Level.Trial)
  public void start() throws SQLException {
    rows = new ArrayList<>(BULK_ROWS);
    for (int i = 0; i < BULK_ROWS; i++) {
      rows.add(Map.of("id", (long) i, "name", "item-" + i, "amount", i * 3));
    }
    jdbc = DriverManager.getConnection(URL, USER, null);
    try (Statement ddl = jdbc.createStatement()) {
      ddl.execute("CREATE UNLOGGED TABLE " + bulkTable + " (id bigint, name text, amount integer)");
      ddl.execute(
          "CREATE UNLOGGED TABLE "
              + selectTable
              + " AS SELECT g AS id, 'row-' || g AS name, g * 7 AS amount, now() AS at"
              + " FROM generate_series(1, "
              + SELECT_ROWS
              + ") g");
    }
    jdbc.setAutoCommit(false);
    if (runner.equals("sluice")) {
      DataSources sources =
          new DataSources(
              List.of(DataSourceConfig.builder("bench", URL).user(USER).maxSize(2).build()));
      Processor count =
          Processor.of(
              ProcessingType.CPU_LITE,
              m -> {
                counted++;
                return m;
              });
      app =
          Application.builder()
              .flow(
                  Flow.builder("bulk")
                      .processor(
                          new DbBulkProcessor(
                              sources,
                              DbStatement.of(
                                  "bench",
                                  "INSERT INTO "
                                      + bulkTable
                                      + " (id, name, amount) VALUES (:id, :name, :amount)",
                                  null,
                                  null),
                              null,
                              BULK_ROWS))
                      .build())
              .flow(
                  Flow.builder("select")
                      .processor(
                          new DbSelectProcessor(
                              sources,
                              DbStatement.of(
                                  "bench",
                                  "SELECT id, name, amount, at FROM " + selectTable,
                                  Map.of(),
                                  null),
                              true,
                              FETCH,
                              0))
                      .processor(Foreach.of(count))
                      .build())
              .build();
      app.start();
    }
  }

  @Setup(Level.Iteration)
  public void empty() throws SQLException {
    try (Statement truncate = jdbc.createStatement()) {
      truncate.execute("TRUNCATE " + bulkTable);
    }
    jdbc.commit();
  }

  @TearDown(Level.Trial)
  public void stop() throws SQLException {
    if (app != null) {
      app.close();
    }
    jdbc.setAutoCommit(true);
    try (Statement ddl = jdbc.createStatement()) {
      ddl.execute("DROP TABLE IF EXISTS " + bulkTable);
      ddl.execute("DROP TABLE IF EXISTS " + selectTable);
    }
    jdbc.close();
  }

  @Benchmark
  public Object bulkInsert() throws SQLException {
    if (app != null) {
      return app.send("bulk", Message.of(rows)).join();
    }
    try (PreparedStatement insert =
        jdbc.prepareStatement(
            "INSERT INTO " + bulkTable + " (id, name, amount) VALUES (?, ?, ?)")) {
      for (Map<String, Object> row : rows) {
        insert.setObject(1, row.get("id"));
        insert.setObject(2, row.get("name"));
        insert.setObject(3, row.get("amount"));
        insert.addBatch();
      }
      int[] counts = insert.executeBatch();
      jdbc.commit();
      return counts;
    }
  }

  @Benchmark
  public long streamedSelect(Blackhole hole) throws SQLException {
    return app != null ? streamedBySluice() : streamedByLoop(hole);
  }

  /** The {@code sluice} side of {@link #streamedSelect}: rows counted by the flow. */
  long streamedBySluice() {
    long before = counted;
    app.send("select", Message.of("go")).join();
    return counted - before;
  }

  /** The {@code jdbc} side of {@link #streamedSelect}: the plain {@code ResultSet} loop. */
  long streamedByLoop(Blackhole hole) throws SQLException {
    long seen = 0;
    try (PreparedStatement select =
        jdbc.prepareStatement("SELECT id, name, amount, at FROM " + selectTable)) {
      select.setFetchSize(FETCH);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          hole.consume(result.getObject(1));
          hole.consume(result.getObject(2));
          hole.consume(result.getObject(3));
          hole.consume(result.getObject(4));
          seen++;
        }
      }
    }
    jdbc.commit();
    return seen;
  }
}
