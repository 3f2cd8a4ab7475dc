package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the batch module relies on to load each row once: a query input's position is the key of the
 * last row read, and opening it there reads on after that row, with {@code :after} bound or not; a
 * key that is not a whole number at least 1, or not increasing, and a query that fails, fail the
 * input naming the data source and the key or SQL state.
 */
class AQueryInputResumesAfterTheLastKeyTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  private static BatchInput input(TestDb db, String sql) {
    return new QueryInput(
        db.dataSources(), QueryInputConfig.builder("db", sql).keyColumn("id").fetchSize(3).build());
  }

  /** Reads at most {@code max} records of {@code reader}. */
  private static List<BatchRecord> read(BatchInput.Reader reader, int max) {
    List<BatchRecord> records = new ArrayList<>();
    for (BatchRecord r = records.size() < max ? reader.next() : null;
        r != null;
        r = records.size() < max ? reader.next() : null) {
      records.add(r);
      if (records.size() == max) {
        break;
      }
    }
    return records;
  }

  private static String table(TestDb db, int rows) throws Exception {
    String table = TestDb.table("keyed");
    BatchOnDb.tables(db, table, table + "_unused", rows);
    return table;
  }

  @ParameterizedTest
  @MethodSource("databases")
  void readingOnFromThePositionGivesTheRowsAfterIt(TestDb db) throws Exception {
    String table = table(db, 10);
    for (String sql :
        List.of(
            "SELECT id, name FROM " + table + " ORDER BY id",
            "SELECT id, name FROM " + table + " WHERE id > :after ORDER BY id")) {
      BatchInput input = input(db, sql);
      long position;
      List<BatchRecord> first;
      try (BatchInput.Reader reader = input.open(0)) {
        first = read(reader, 4);
        position = reader.position();
      }
      List<BatchRecord> rest;
      try (BatchInput.Reader reader = input.open(position)) {
        rest = read(reader, 100);
        assertThat(reader.next()).isNull();
        assertThat(reader.position()).isEqualTo(10);
      }

      assertThat(position).as(sql).isEqualTo(4);
      assertThat(first).extracting(BatchRecord::position).containsExactly(1L, 2L, 3L, 4L);
      assertThat(rest).extracting(BatchRecord::position).containsExactly(5L, 6L, 7L, 8L, 9L, 10L);
      assertThat(rest.getFirst().payload())
          .isInstanceOfSatisfying(
              Map.class, row -> assertThat(row).containsEntry("name", "row 5").hasSize(2));
    }
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aKeyThatIsNotAWholeNumberFailsTheInputNamingIt(TestDb db) throws Exception {
    String table = table(db, 3);
    BatchInput input =
        new QueryInput(
            db.dataSources(),
            QueryInputConfig.builder("db", "SELECT name AS id FROM " + table + " ORDER BY id")
                .keyColumn("id")
                .build());

    BatchInputException e;
    try (BatchInput.Reader reader = input.open(0)) {
      e = catchThrowableOfType(BatchInputException.class, reader::next);
    }

    assertThat(e)
        .hasMessageContaining("data source 'db'")
        .hasMessageContaining("keyColumn 'id' holds row 1 (a java.lang.String) in the first row")
        .hasMessageContaining("is not a whole number");
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aKeyNotGreaterThanTheOneBeforeFailsTheInput(TestDb db) throws Exception {
    String table = table(db, 3);
    BatchInput input =
        new QueryInput(
            db.dataSources(),
            QueryInputConfig.builder(
                    "db",
                    "SELECT CASE WHEN id = 3 THEN 2 ELSE id END AS id FROM "
                        + table
                        + " ORDER BY id")
                .keyColumn("id")
                .build());

    BatchInputException e;
    try (BatchInput.Reader reader = input.open(0)) {
      e =
          catchThrowableOfType(
              BatchInputException.class,
              () -> {
                while (reader.next() != null) {
                  // reads until the key repeats
                }
              });
    }

    assertThat(e)
        .hasMessageContaining("keyColumn 'id' holds 2 (a ")
        .hasMessageContaining("in the row after key 2, which is not greater than the key before");
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aQueryThatFailsNamesTheDataSourceAndTheSqlState(TestDb db) throws Exception {
    BatchInput input = input(db, "SELECT id FROM no_such_table ORDER BY id");

    BatchInputException e = catchThrowableOfType(BatchInputException.class, () -> input.open(0));

    assertThat(e)
        .hasMessageStartingWith("query input on data source 'db' failed")
        .hasCauseInstanceOf(DbException.class);
    DbException cause = (DbException) e.getCause();
    assertThat(cause.getMessage()).contains("no_such_table");
    if (!db.kind().equals("sqlite")) { // SQLite's driver gives no SQL state
      assertThat(cause.sqlState()).isNotNull();
      assertThat(e).hasMessageContaining("(SQL state " + cause.sqlState() + ")");
    }
  }
}
