package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.ChildJvm;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 200,000 rows of about 1 KB (some 200 MB held as maps) are read by a streaming db-select and gone
 * through by a flow's foreach in a JVM of 64 MB of heap, on each database: a select that held its
 * rows, or a foreach that did, would run out of memory.
 */
@Tag("crash")
class StreamingSelectRunsInBoundedMemoryTest {

  static final int ROWS = 200_000;

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void twoHundredThousandRowsOfAKilobyteGoThroughForeachInSixtyFourMegabytes(TestDb db)
      throws Exception {
    String table = TestDb.table("wide");
    db.execute("CREATE TABLE " + table + " (n integer, padding varchar(1100))");
    db.execute(
        switch (db.kind()) {
          case "postgresql" ->
              "INSERT INTO "
                  + table
                  + " SELECT g, repeat('x', 1000) FROM generate_series(1, "
                  + ROWS
                  + ") g";
          case "mariadb" ->
              "INSERT INTO " + table + " SELECT seq, repeat('x', 1000) FROM seq_1_to_" + ROWS;
          default ->
              "INSERT INTO "
                  + table
                  + " WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1"
                  + " FROM g WHERE n < "
                  + ROWS
                  + ") SELECT n, printf('%.1000c', 'x') FROM g";
        });

    List<String> command =
        ChildJvm.command(Child.class, db.url(), db.user() == null ? "" : db.user(), table);
    command.add(1, "-Xmx64m");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (var in = child.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(output).contains("foreach " + ROWS + " rows, sum " + sum(ROWS));
    assertThat(child.exitValue()).as(output).isZero();
  }

  private static long sum(long n) {
    return n * (n + 1) / 2;
  }

  /** Streams the table through a flow's foreach and prints how many rows it saw. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      DataSources sources =
          new DataSources(
              List.of(
                  DataSourceConfig.builder("db", args[0])
                      .user(args[1].isEmpty() ? null : args[1])
                      .build()));
      AtomicLong count = new AtomicLong();
      AtomicLong sum = new AtomicLong();
      Processor counting =
          Processor.of(
              ProcessingType.CPU_LITE,
              m -> {
                count.incrementAndGet();
                sum.addAndGet(((Number) ((Map<?, ?>) m.payload()).get("n")).longValue());
                return m;
              });
      Flow flow =
          Flow.builder("stream")
              .processor(
                  new DbSelectProcessor(
                      sources,
                      DbStatement.of("db", "SELECT n, padding FROM " + args[2], Map.of(), null),
                      true,
                      500,
                      0))
              .processor(Foreach.of(counting))
              .build();
      try (Application application = Application.builder().flow(flow).build()) {
        application.start();
        application.send("stream", Message.of(null)).get(4, TimeUnit.MINUTES);
      }
      System.out.println("foreach " + count.get() + " rows, sum " + sum.get());
    }
  }
}
