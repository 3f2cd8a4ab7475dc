package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static io.sluice.db.TestDb.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * db-bulk at the edges of its batch size (0 elements, 1, exactly one batch, one more) on every
 * database: every element written once, a count for each, and a failing element leaves nothing.
 */
class BulkSendsBatchesOfBatchSizeTest {

  private static final int BATCH = 4;

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static Stream<Arguments> sizes() {
    return Stream.of(TestDb.all(POSTGRES, MARIADB, dir))
        .flatMap(db -> Stream.of(0, 1, BATCH, BATCH + 1).map(n -> Arguments.of(db, n)));
  }

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  private static Flow bulk(TestDb db, String table) {
    return Flow.builder("bulk")
        .processor(
            new DbBulkProcessor(
                db.dataSources(),
                DbStatement.of(
                    "db",
                    "INSERT INTO " + table + " (n, label) VALUES (:n, :label)",
                    parameters("n", "#[payload]", "label", "n#[payload]"),
                    null),
                null,
                BATCH))
        .build();
  }

  @ParameterizedTest
  @MethodSource("sizes")
  void everyElementIsWrittenOnceWithACount(TestDb db, int elements) throws Exception {
    String table = TestDb.table("bulk");
    db.execute("CREATE TABLE " + table + " (n integer primary key, label varchar(10))");
    List<Integer> payload = IntStream.range(0, elements).boxed().toList();

    List<?> counts = (List<?>) run(bulk(db, table), Message.of(payload)).payload();

    assertThat(counts).hasSize(elements);
    assertThat(counts).allMatch(c -> (Integer) c == 1 || (Integer) c == -2);
    assertThat(db.number("SELECT count(*) FROM " + table)).isEqualTo(elements);
    assertThat(db.number("SELECT count(*) FROM " + table + " WHERE label = concat('n', n)"))
        .isEqualTo(elements);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aFailingElementLeavesNothingWritten(TestDb db) throws Exception {
    String table = TestDb.table("bulk");
    db.execute("CREATE TABLE " + table + " (n integer primary key, label varchar(10))");
    List<Integer> payload = List.of(1, 2, 3, 4, 5, 6, 2);

    assertThatThrownBy(() -> run(bulk(db, table), Message.of(payload)))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(DbException.class)
        .satisfies(e -> assertThat(((DbException) e).errorType()).isEqualTo("DB:CONSTRAINT"));
    assertThat(db.number("SELECT count(*) FROM " + table)).isZero();
  }

  static TestDb[] servers() {
    return new TestDb[] {TestDb.postgres(POSTGRES), TestDb.mariadb(MARIADB)};
  }

  /**
   * A streaming select's rows go straight into a bulk insert, table to table, neither holding them
   * all; the rows are closed at the end. (An SQLite file in its default journal mode lets no
   * connection write while another reads, so the servers only.)
   */
  @ParameterizedTest
  @MethodSource("servers")
  void aStreamingSelectFeedsABulkTableToTable(TestDb db) throws Exception {
    String from = TestDb.table("source");
    String to = TestDb.table("copy");
    db.execute("CREATE TABLE " + from + " (n integer primary key, label varchar(10))");
    db.execute("CREATE TABLE " + to + " (n integer primary key, label varchar(10))");
    List<Integer> numbers = IntStream.range(0, 1001).boxed().toList();
    run(bulk(db, from), Message.of(numbers));
    DataSources sources = db.dataSources();
    Flow copy =
        Flow.builder("copy")
            .processor(
                new DbSelectProcessor(
                    sources,
                    DbStatement.of("db", "SELECT n, label FROM " + from, Map.of(), "rows"),
                    true,
                    100,
                    0))
            .processor(
                new DbBulkProcessor(
                    sources,
                    DbStatement.of(
                        "db", "INSERT INTO " + to + " (n, label) VALUES (:n, :label)", null, null),
                    io.sluice.core.expression.Expression.compile("collection", "vars.rows"),
                    BATCH))
            .build();

    List<?> counts = (List<?>) run(copy, Message.of(null)).payload();

    assertThat(counts).hasSize(1001);
    assertThat(db.number("SELECT count(*) FROM " + to)).isEqualTo(1001);
    assertThat(db.number("SELECT sum(n) FROM " + to)).isEqualTo(1000L * 1001 / 2);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void withoutParametersEachElementGivesThemByName(TestDb db) throws Exception {
    String table = TestDb.table("bulk");
    db.execute("CREATE TABLE " + table + " (n integer primary key, label varchar(10))");
    Flow flow =
        Flow.builder("bulk")
            .processor(
                new DbBulkProcessor(
                    db.dataSources(),
                    DbStatement.of(
                        "db",
                        "INSERT INTO " + table + " (n, label) VALUES (:n, :label)",
                        null,
                        null),
                    null,
                    BATCH))
            .build();

    run(flow, Message.of(List.of(Map.of("n", 1, "label", "one"), Map.of("n", 2, "label", "two"))));

    assertThat(db.number("SELECT count(*) FROM " + table)).isEqualTo(2);
    assertThatThrownBy(() -> run(flow, Message.of(List.of(Map.of("n", 3)))))
        .cause()
        .isInstanceOf(DbException.class)
        .hasMessageContaining("parameter 'label': an element has no key 'label'")
        .satisfies(e -> assertThat(((DbException) e).errorType()).isEqualTo("DB:BAD_PARAMETER"));
  }
}
