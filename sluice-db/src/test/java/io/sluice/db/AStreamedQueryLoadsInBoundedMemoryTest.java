package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchRecord;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A query input reads its rows {@code fetchSize} at a time (a cursor on PostgreSQL, a streamed
 * result on MariaDB, row by row on SQLite): 200,000 rows of 1 kB, some 200 MB, go through with the
 * heap in use never more than a few MB above where it started.
 */
class AStreamedQueryLoadsInBoundedMemoryTest {

  private static final int ROWS = 200_000;
  private static final long BOUND = 48L * 1024 * 1024;

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  /** Rows 1..ROWS of 1000 characters each, made by the server, not stored. */
  private static String generated(TestDb db) {
    return switch (db.kind()) {
      case "postgresql" ->
          "SELECT g AS id, repeat('x', 1000) AS pad FROM generate_series(1, "
              + ROWS
              + ") g ORDER BY id";
      case "mariadb" ->
          "SELECT seq AS id, repeat('x', 1000) AS pad FROM seq_1_to_" + ROWS + " ORDER BY id";
      default ->
          "WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < "
              + ROWS
              + ") SELECT id, hex(zeroblob(500)) AS pad FROM s ORDER BY id";
    };
  }

  @ParameterizedTest
  @MethodSource("databases")
  void manyRowsGoThroughInBoundedMemory(TestDb db) {
    BatchInput input =
        new QueryInput(
            db.dataSources(),
            QueryInputConfig.builder("db", generated(db)).keyColumn("id").fetchSize(1000).build());
    long baseline = usedAfterGc();
    long most = 0;
    long rows = 0;
    long characters = 0;
    try (BatchInput.Reader reader = input.open(0)) {
      for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
        rows++;
        characters += ((String) ((java.util.Map<?, ?>) r.payload()).get("pad")).length();
        if (rows % 25_000 == 0) {
          most = Math.max(most, usedAfterGc() - baseline);
        }
      }
      assertThat(reader.position()).isEqualTo(ROWS);
    }

    assertThat(rows).isEqualTo(ROWS);
    assertThat(characters).isEqualTo(1000L * ROWS);
    assertThat(most).as("heap in use above the start, in bytes").isLessThan(BOUND);
  }

  private static long usedAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    System.gc();
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
