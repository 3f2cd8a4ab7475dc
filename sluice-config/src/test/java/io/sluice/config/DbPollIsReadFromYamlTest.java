package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import io.sluice.db.DbPollConfig;
import io.sluice.db.DbPollSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * db-poll in a configuration file: every key read, the defaults, and each broken value reported
 * with its key, value, rule and line, all at once.
 */
class DbPollIsReadFromYamlTest {

  private static final String DATA_SOURCES =
      """
      dataSources:
        - name: orders-db
          url: jdbc:sqlite:/tmp/never-opened.db
      """;

  private static Application.Builder parse(String yaml) {
    return ConfigLoader.parse(
        "app.yaml", yaml, Path.of("/etc/sluice"), DbPollIsReadFromYamlTest.class.getClassLoader());
  }

  private static List<ConfigProblem> problems(String yaml) {
    ConfigurationException e =
        catchThrowableOfType(ConfigurationException.class, () -> parse(yaml));
    assertThat(e).as("problems in:%n%s", yaml).isNotNull();
    return e.problems();
  }

  private static DbPollSource source(String yaml) {
    try (Application app = parse(yaml).build()) {
      return (DbPollSource) app.flows().getFirst().source();
    }
  }

  @Test
  void everyKeyIsRead() {
    DbPollConfig config =
        source(
                DATA_SOURCES
                    + """
                    flows:
                      - name: orders
                        source:
                          db-poll:
                            dataSource: orders-db
                            sql: SELECT * FROM orders WHERE updated > :watermark AND region = :region ORDER BY updated
                            parameters: { region: EU }
                            frequency: 5s
                            watermarkColumn: updated
                            initialWatermark: "2024-05-01T00:00:00"
                            maxRows: 500
                            fetchSize: 50
                            perRow: false
                            pageSize: 20
                            maxDeliveries: 0
                    """)
            .config();

    assertThat(config.dataSource()).isEqualTo("orders-db");
    assertThat(config.statement().sql().names()).containsExactly("watermark", "region");
    assertThat(config.frequency()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.watermarkColumn()).isEqualTo("updated");
    assertThat(config.initialWatermark()).isEqualTo(LocalDateTime.parse("2024-05-01T00:00:00"));
    assertThat(config.maxRows()).isEqualTo(500);
    assertThat(config.fetchSize()).isEqualTo(50);
    assertThat(config.perRow()).isFalse();
    assertThat(config.pageSize()).isEqualTo(20);
    assertThat(config.maxDeliveries()).isZero();
  }

  @Test
  void theDefaultsPollEverySecondAThousandRowsAtMost() {
    DbPollConfig config =
        source(
                DATA_SOURCES
                    + """
                    flows:
                      - name: orders
                        source:
                          db-poll:
                            dataSource: orders-db
                            sql: SELECT * FROM orders WHERE id > :watermark ORDER BY id
                            watermarkColumn: id
                            initialWatermark: 0
                    """)
            .config();

    assertThat(config.initialWatermark()).isEqualTo(0L);
    assertThat(config.frequency()).isEqualTo(DbPollConfig.DEFAULT_FREQUENCY);
    assertThat(config.maxRows()).isEqualTo(1000);
    assertThat(config.perRow()).isTrue();
    assertThat(config.maxDeliveries()).isEqualTo(5);
  }

  @Test
  void brokenValuesAreReportedTogetherWithKeyValueRuleAndLine() {
    List<ConfigProblem> problems =
        problems(
            DATA_SOURCES
                + """
                flows:
                  - name: orders
                    source:
                      db-poll:
                        dataSource: billing-db
                        sql: SELECT * FROM orders WHERE id > :watermark ORDER BY id
                        initialWatermark: 0
                        frequency: 0s
                  - name: pages
                    source:
                      db-poll:
                        dataSource: orders-db
                        sql: SELECT * FROM orders
                        watermarkColumn: id
                        initialWatermark: 0
                        pageSize: 10
                        frequency: soon
                """);

    assertThat(problems)
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule)
        .containsExactlyInAnyOrder(
            tuple(
                "flows[0].source.db-poll.dataSource",
                "billing-db",
                "is not a data source of this configuration; its data sources: orders-db"),
            tuple(
                "flows[0].source.db-poll.watermarkColumn",
                "null",
                "is required: sql names :watermark, which is bound to the last value of this"
                    + " column handed over"),
            tuple("flows[0].source.db-poll.frequency", "PT0S", "must be a positive duration"),
            tuple(
                "flows[1].source.db-poll.sql",
                "SELECT * FROM orders",
                "does not name :watermark, which watermarkColumn needs: the poll binds the last"
                    + " watermark to it (WHERE id > :watermark ORDER BY id)"),
            tuple(
                "flows[1].source.db-poll.initialWatermark",
                "0",
                "applies only when sql names :watermark (the first poll binds it there); remove"
                    + " it, or name :watermark in sql"),
            tuple(
                "flows[1].source.db-poll.pageSize",
                "10",
                "applies only with perRow: false (a page of rows per message)"),
            tuple(
                "flows[1].source.db-poll.frequency", "soon", io.sluice.config.spi.Durations.RULE));
    assertThat(problems)
        .extracting(ConfigProblem::source)
        .containsExactlyInAnyOrder(
            "app.yaml:7:7", // watermarkColumn, not written: where db-poll is
            "app.yaml:8:9",
            "app.yaml:11:9",
            "app.yaml:16:9",
            "app.yaml:18:9",
            "app.yaml:19:9",
            "app.yaml:20:9");
  }
}
