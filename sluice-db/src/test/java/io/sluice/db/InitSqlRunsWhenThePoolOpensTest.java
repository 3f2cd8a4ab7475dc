package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.ConfigurationException;
import io.sluice.core.FlowStartException;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A data source's {@code initSql}, on PostgreSQL, MariaDB and SQLite: its statements run in order,
 * each on its own, when the pool opens and before the first processor uses it; written to be run
 * again, they leave the same tables and rows at every start; one that fails fails the start with a
 * {@link DbException} naming the data source, the statement's place and the SQL state, never the
 * password, and leaves the pool closed.
 */
class InitSqlRunsWhenThePoolOpensTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  /** The statements that make {@code table} with its two seed rows, safe to run again. */
  private static List<String> creating(TestDb db, String table) {
    String insert =
        db.kind().equals("mariadb")
            ? "INSERT IGNORE INTO " + table + " (id, name) VALUES (1, 'first'), (2, 'second')"
            : "INSERT INTO "
                + table
                + " (id, name) VALUES (1, 'first'), (2, 'second') ON CONFLICT (id) DO NOTHING";
    return List.of(
        "CREATE TABLE IF NOT EXISTS " + table + " (id integer primary key, name varchar(20))",
        insert);
  }

  private static DataSources withInitSql(TestDb db, List<String> initSql) {
    DataSourceConfig plain = db.config();
    return new DataSources(
        List.of(
            DataSourceConfig.builder(plain.name(), plain.url())
                .user(plain.user())
                .password(plain.password())
                .initSql(initSql)
                .build()));
  }

  private static Flow selecting(DataSources sources, String table) {
    return Flow.builder("names")
        .processor(
            DbSelectProcessor.of(
                sources,
                DbStatement.of(
                    "db", "SELECT id, name FROM " + table + " ORDER BY id", Map.of(), null)))
        .build();
  }

  @ParameterizedTest
  @MethodSource("databases")
  void theStatementsRunInOrderBeforeTheFirstUseAndAgainAtEveryStart(TestDb db) throws Exception {
    String table = TestDb.table("names");
    DataSources sources = withInitSql(db, creating(db, table));

    List<Object> answers = new ArrayList<>();
    for (int start = 0; start < 2; start++) {
      try (Application app = Application.builder().flow(selecting(sources, table)).build()) {
        app.start();
        answers.add(app.send("names", Message.of(null)).get().payload());
      }
    }

    List<Map<String, Object>> seeded =
        List.of(Map.of("id", 1, "name", "first"), Map.of("id", 2, "name", "second"));
    assertThat(answers)
        .allSatisfy(
            rows ->
                assertThat(((List<?>) rows).stream().map(row -> normal((Map<?, ?>) row)).toList())
                    .isEqualTo(seeded));
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aFailingStatementFailsTheStartNamingItsPlaceAndTheSqlState(TestDb db) throws Exception {
    String table = TestDb.table("names");
    List<String> initSql = new ArrayList<>(creating(db, table));
    initSql.add("INSERT INTO " + TestDb.table("missing") + " (id) VALUES (1)");
    DataSources sources = withInitSql(db, initSql);

    Throwable thrown;
    try (Application app = Application.builder().flow(selecting(sources, table)).build()) {
      thrown = catchThrowable(app::start);
    }

    assertThat(thrown).isInstanceOf(FlowStartException.class);
    assertThat(thrown.getCause()).isInstanceOf(DbException.class);
    DbException failure = (DbException) thrown.getCause();
    assertThat(failure.dataSource()).isEqualTo("db");
    assertThat(failure.operation()).isEqualTo("initSql[2]");
    assertThat(failure.errorType()).isEqualTo(DbException.QUERY);
    assertThat(failure.getMessage()).startsWith("initSql[2] on data source 'db' failed");
    if (!db.kind().equals("sqlite")) { // SQLite's driver gives no SQL state
      assertThat(failure.sqlState()).isEqualTo(db.kind().equals("mariadb") ? "42S02" : "42P01");
      assertThat(failure.getMessage()).contains("(SQL state " + failure.sqlState() + ")");
    }
    assertThat(sources.isOpen("db")).isFalse();
    assertThat(db.number("SELECT count(*) FROM " + table))
        .as("the statements before the failing one ran")
        .isEqualTo(2);
  }

  @Test
  void theFailureNeverNamesThePassword() {
    String password = "Pw-init-5b8e";
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", TestDb.sqlite(dir).url())
                    .password(password)
                    .initSql(List.of("SELECT * FROM \"" + password + "\""))
                    .build()));

    Throwable thrown;
    try (Application app =
        Application.builder().flow(selecting(sources, TestDb.table("none"))).build()) {
      thrown = catchThrowable(app::start);
    }

    assertThat(thrown.getCause()).isInstanceOf(DbException.class);
    assertThat(((DbException) thrown.getCause()).operation()).isEqualTo("initSql[0]");
    assertThat(thrown.getMessage()).contains("no such table: ******").doesNotContain(password);
  }

  @Test
  void aPasswordWrittenInTheUrlIsMaskedInTheErrorToo() {
    String password = "Pw-url-init-7c2d";
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", TestDb.sqlite(dir).url() + "?password=" + password)
                    .initSql(List.of("SELECT * FROM \"" + password + "\""))
                    .build()));

    Throwable thrown;
    try (Application app =
        Application.builder().flow(selecting(sources, TestDb.table("none"))).build()) {
      thrown = catchThrowable(app::start);
    }

    assertThat(thrown.getCause()).isInstanceOf(DbException.class);
    assertThat(thrown.getMessage()).contains("no such table: ******").doesNotContain(password);
  }

  @Test
  void anEmptyStatementIsRefusedAtItsPlace() {
    Throwable thrown =
        catchThrowable(
            () ->
                DataSourceConfig.builder("db", TestDb.sqlite(dir).url())
                    .initSql(List.of("SELECT 1", " "))
                    .build());

    assertThat(thrown)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("initSql[1]")
        .hasMessageContaining("must not be empty");
  }

  /** A row with its numbers as ints, whatever integer type the driver gives. */
  private static Map<String, Object> normal(Map<?, ?> row) {
    return Map.of(
        "id", ((Number) row.get("id")).intValue(), "name", String.valueOf(row.get("name")));
  }
}
