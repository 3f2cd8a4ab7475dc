package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code try: { transaction: <data source> }} in YAML: its rows committed together or rolled back
 * before the error branch runs, and a name that is no data source of the file reported at its line
 * with the data sources there are.
 */
class ATransactionalTryIsReadFromYamlTest {

  @TempDir Path dir;

  private String yaml() {
    return """
        dataSources:
          - { name: shop, url: "jdbc:sqlite:%s" }
        flows:
          - name: orders
            processors:
              - db-execute: { dataSource: shop, sql: "CREATE TABLE IF NOT EXISTS orders (sku text primary key)", target: ddl }
              - try:
                  transaction: shop
                  processors:
                    - db-insert: { dataSource: shop, sql: "INSERT INTO orders (sku) VALUES (:sku)", parameters: { sku: "#[payload]" }, target: a }
                    - db-insert: { dataSource: shop, sql: "INSERT INTO orders (sku) VALUES (:sku)", parameters: { sku: "#[payload + '-2']" }, target: b }
                    - db-insert: { dataSource: shop, sql: "INSERT INTO orders (sku) VALUES (:sku)", parameters: { sku: "#[payload == 'bad' ? payload : payload + '-3']" }, target: c }
                  errorHandler:
                    - onErrorContinue:
                        types: [DB:CONSTRAINT]
                        processors:
                          - db-select: { dataSource: shop, sql: "SELECT count(*) AS n FROM orders", target: seen }
                          - set-payload: { value: "rolled back, then saw #[vars.seen[0].n] rows" }
        """
        .formatted(dir.resolve("shop.db"));
  }

  private long rows() throws Exception {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"));
        ResultSet rs = connection.createStatement().executeQuery("SELECT count(*) FROM orders")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aScopeThatCompletesCommitsItsRowsAndOneThatFailsRollsThemBackBeforeItsBranch()
      throws Exception {
    try (Application app = Configs.read(yaml()).application().build()) {
      app.start();
      app.send("orders", Message.of("good")).get(30, TimeUnit.SECONDS);
      Message failed = app.send("orders", Message.of("bad")).get(30, TimeUnit.SECONDS);

      assertThat(failed.payload()).isEqualTo("rolled back, then saw 3 rows");
    }
    assertThat(rows()).isEqualTo(3);
  }

  @Test
  void aTransactionNamingNoDataSourceIsAProblemAtItsLine() {
    assertThat(
            Configs.problems(
                """
                dataSources:
                  - { name: shop, url: "jdbc:sqlite:shop.db" }
                  - { name: stock, url: "jdbc:sqlite:stock.db" }
                flows:
                  - name: f
                    processors:
                      - try:
                          transaction: shpo
                          processors:
                            - db-select: { dataSource: shop, sql: "SELECT 1" }
                """))
        .extracting(ConfigProblem::source, ConfigProblem::path, ConfigProblem::value, p -> p.rule())
        .containsExactly(
            tuple(
                "app.yaml:8:11",
                "flows[0].processors[0].try.transaction",
                "shpo",
                "is not a data source of this configuration; its data sources: shop, stock"));
  }

  @Test
  void aFileWithoutDataSourcesSaysItHasNone() {
    assertThat(
            Configs.rule(
                """
                flows:
                  - name: f
                    processors:
                      - try: { transaction: shop, processors: [ { logger: { message: hi } } ] }
                """,
                "flows[0].processors[0].try.transaction"))
        .isEqualTo("is not a data source of this configuration, which has none");
  }

  @Test
  void theJavaBuilderRefusesToStartATryWhoseDataSourceIsUnknown() {
    assertThatThrownBy(
            () -> {
              var scope =
                  new io.sluice.core.router.TryScope(
                      "t",
                      java.util.List.of(),
                      java.util.List.of(),
                      new io.sluice.core.transaction.TransactionalResources(),
                      "shop");
              scope.start(null);
            })
        .hasMessageContaining("transaction names data source 'shop', which is not defined");
  }
}
