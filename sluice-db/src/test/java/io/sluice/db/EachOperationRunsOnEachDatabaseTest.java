package io.sluice.db;

import static io.sluice.db.TestDb.parameters;
import static io.sluice.db.TestDb.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.flow.Flow;
import io.sluice.db.DbUpdateProcessor.Kind;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every operation, in a real flow, against PostgreSQL, MariaDB and SQLite: DDL, an insert with its
 * generated key, a select by named parameters, an update, a delete and a bulk insert.
 */
class EachOperationRunsOnEachDatabaseTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void ddlInsertSelectUpdateDeleteAndBulkRunInAFlow(TestDb db) throws Exception {
    DataSources sources = db.dataSources();
    String table = TestDb.table("items");
    Flow create =
        Flow.builder("create")
            .processor(
                new DbExecuteProcessor(
                    sources,
                    DbStatement.of(
                        "db",
                        "CREATE TABLE "
                            + table
                            + " ("
                            + db.idColumn()
                            + ", sku varchar(20) not null, quantity integer)",
                        Map.of(),
                        null),
                    Map.of()))
            .build();
    assertThat(run(create, Message.of(null)).payload()).isEqualTo(0);

    Flow insert =
        Flow.builder("insert")
            .processor(
                new DbUpdateProcessor(
                    Kind.INSERT,
                    sources,
                    DbStatement.of(
                        "db",
                        "INSERT INTO " + table + " (sku, quantity) VALUES (:sku, :quantity)",
                        parameters("sku", "#[payload.sku]", "quantity", "#[payload.quantity]"),
                        null),
                    true))
            .build();
    Map<?, ?> inserted =
        (Map<?, ?>) run(insert, Message.of(Map.of("sku", "A-1", "quantity", 3))).payload();
    assertThat(inserted.get("affectedRows")).isEqualTo(1);
    List<?> keys = (List<?>) inserted.get("generatedKeys");
    assertThat(keys).hasSize(1);
    Number id = (Number) ((Map<?, ?>) keys.getFirst()).values().iterator().next();
    assertThat(id.longValue()).isEqualTo(1L);

    Flow bulk =
        Flow.builder("bulk")
            .processor(
                new DbBulkProcessor(
                    sources,
                    DbStatement.of(
                        "db",
                        "INSERT INTO " + table + " (sku, quantity) VALUES (:sku, :quantity)",
                        null,
                        null),
                    null,
                    2))
            .build();
    List<Map<String, Object>> more =
        List.of(
            Map.of("sku", "B-1", "quantity", 1),
            Map.of("sku", "B-2", "quantity", 2),
            Map.of("sku", "B-3", "quantity", 5));
    assertThat((List<?>) run(bulk, Message.of(more)).payload()).hasSize(3);

    Flow update =
        Flow.builder("update")
            .processor(
                new DbUpdateProcessor(
                    Kind.UPDATE,
                    sources,
                    DbStatement.of(
                        "db",
                        "UPDATE " + table + " SET quantity = quantity + 10 WHERE sku LIKE :prefix",
                        parameters("prefix", "#[payload + '%']"),
                        null),
                    false))
            .build();
    assertThat(run(update, Message.of("B-")).payload()).isEqualTo(3);

    Flow delete =
        Flow.builder("delete")
            .processor(
                new DbUpdateProcessor(
                    Kind.DELETE,
                    sources,
                    DbStatement.of(
                        "db",
                        "DELETE FROM " + table + " WHERE quantity > :over",
                        parameters("over", "#[payload]"),
                        null),
                    false))
            .build();
    assertThat(run(delete, Message.of(11)).payload()).isEqualTo(2);

    Flow select =
        Flow.builder("select")
            .processor(
                new DbSelectProcessor(
                    sources,
                    DbStatement.of(
                        "db",
                        "SELECT sku, quantity AS qty FROM "
                            + table
                            + " WHERE quantity >= :least ORDER BY sku",
                        parameters("least", "#[payload]"),
                        "rows"),
                    false,
                    0,
                    0))
            .build();
    Message selected = run(select, Message.of(0));
    List<?> rows = (List<?>) selected.variable("rows");
    assertThat(rows.stream().<Object>map(row -> List.copyOf(((Map<?, ?>) row).keySet())))
        .containsOnly(List.of("sku", "qty"));
    assertThat(rows.stream().<Object>map(row -> ((Map<?, ?>) row).get("sku")))
        .containsExactly("A-1", "B-1");
    assertThat(sources.isOpen("db")).as("closed once its processors stopped").isFalse();
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aNullValueIsBoundAsNull(TestDb db) throws Exception {
    String table = TestDb.table("nullable");
    db.execute("CREATE TABLE " + table + " (n integer, label varchar(10))");
    Flow insert =
        Flow.builder("insert")
            .processor(
                new DbUpdateProcessor(
                    Kind.INSERT,
                    db.dataSources(),
                    DbStatement.of(
                        "db",
                        "INSERT INTO " + table + " (n, label) VALUES (:n, :label)",
                        parameters("n", "#[payload.n]", "label", "#[null]"),
                        null),
                    false))
            .build();

    run(insert, Message.of(Map.of("n", 7)));
    run(insert, Message.of(Map.of()));

    assertThat(db.number("SELECT count(*) FROM " + table + " WHERE n IS NULL AND label IS NULL"))
        .isEqualTo(1);
    assertThat(db.number("SELECT count(*) FROM " + table + " WHERE n = 7 AND label IS NULL"))
        .isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void maxRowsStopsTheSelect(TestDb db) throws Exception {
    String table = TestDb.table("numbers");
    db.execute("CREATE TABLE " + table + " (n integer)");
    db.execute("INSERT INTO " + table + " (n) VALUES (1), (2), (3), (4)");
    Flow select =
        Flow.builder("select")
            .processor(
                new DbSelectProcessor(
                    db.dataSources(),
                    DbStatement.of("db", "SELECT n FROM " + table + " ORDER BY n", Map.of(), null),
                    false,
                    0,
                    2))
            .build();

    assertThat((List<?>) run(select, Message.of(null)).payload()).hasSize(2);
  }
}
