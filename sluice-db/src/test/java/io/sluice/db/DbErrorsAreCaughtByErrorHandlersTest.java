package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static io.sluice.db.TestDb.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.spi.Processor;
import io.sluice.db.DbUpdateProcessor.Kind;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each error type reaches a flow's error handler, which matches it by type and reads it as {@code
 * error.errorType}; the message names the data source, the operation and the SQL state.
 */
class DbErrorsAreCaughtByErrorHandlersTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  /** A flow of {@code processor} whose handler of {@code type} answers the type and the message. */
  private static Flow handled(Processor processor, String type) {
    return Flow.builder("orders")
        .processor(processor)
        .onError(
            new OnError.Continue(
                List.of(type),
                null,
                List.of(
                    new SetPayloadProcessor(
                        Template.parse("value", "#[error.errorType] | #[error.cause.message]")))))
        .build();
  }

  private static Processor insert(DataSources sources, String table, String value) {
    return new DbUpdateProcessor(
        Kind.INSERT,
        sources,
        DbStatement.of(
            "db", "INSERT INTO " + table + " (sku) VALUES (:sku)", parameters("sku", value), null),
        false);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aDuplicateKeyIsAConstraintError(TestDb db) throws Exception {
    String table = TestDb.table("orders");
    db.execute("CREATE TABLE " + table + " (sku varchar(10) primary key)");
    db.execute("INSERT INTO " + table + " (sku) VALUES ('A')");

    String answer =
        (String)
            run(handled(insert(db.dataSources(), table, "A"), "CONSTRAINT"), Message.of(1))
                .payload();

    assertThat(answer).startsWith("DB:CONSTRAINT | db-insert on data source 'db' failed");
    if (!db.kind().equals("sqlite")) {
      assertThat(answer).contains("(SQL state 23");
    }
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aQueryThatDoesNotRunIsAQueryError(TestDb db) throws Exception {
    Processor select =
        DbSelectProcessor.of(
            db.dataSources(),
            DbStatement.of("db", "SELECT nothing FROM no_such_table", Map.of(), null));

    String answer = (String) run(handled(select, "DB:QUERY"), Message.of(1)).payload();

    assertThat(answer).startsWith("DB:QUERY | db-select on data source 'db' failed");
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aValueJdbcCannotBindIsABadParameter(TestDb db) throws Exception {
    String table = TestDb.table("orders");
    db.execute("CREATE TABLE " + table + " (sku varchar(10))");

    String answer =
        (String)
            run(
                    handled(insert(db.dataSources(), table, "#[payload]"), "BAD_PARAMETER"),
                    Message.of(Map.of("nested", "map")))
                .payload();

    assertThat(answer)
        .startsWith("DB:BAD_PARAMETER | db-insert on data source 'db' failed: parameter 'sku'")
        .contains("java.util.ImmutableCollections$Map1, which JDBC cannot bind");
    assertThat(db.number("SELECT count(*) FROM " + table)).isZero();
  }

  @Test
  void aDatabaseThatCannotBeReachedIsAConnectivityError() throws Exception {
    DataSources sources =
        new DataSources(
            List.of(
                DataSourceConfig.builder("db", "jdbc:postgresql://127.0.0.1:1/test")
                    .user("postgres")
                    .connectionTimeout(Duration.ofMillis(500))
                    .build()));
    Processor select =
        DbSelectProcessor.of(sources, DbStatement.of("db", "SELECT 1", Map.of(), null));

    String answer = (String) run(handled(select, "CONNECTIVITY"), Message.of(1)).payload();

    assertThat(answer)
        .startsWith("DB:CONNECTIVITY | db-select on data source 'db' failed (SQL state 08")
        .contains("Connection to 127.0.0.1:1 refused")
        .contains("the call may succeed once the database is reachable again");
  }
}
