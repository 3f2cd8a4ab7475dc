package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batch input {@code query} in a configuration file, brought by sluice-db as a {@code
 * BATCH_INPUT} component: every key read, the defaults, the exactly-one-of rule naming it beside
 * the built-in kinds, and each broken value reported with its key, value, rule and line, all at
 * once.
 */
class QueryInputIsReadFromYamlTest {

  private static final String DATA_SOURCES =
      """
      dataSources:
        - name: orders-db
          url: jdbc:sqlite:/tmp/never-opened.db
      """;

  private static Configuration read(String yaml) {
    return ConfigLoader.read(
        "app.yaml",
        yaml,
        Path.of("/etc/sluice"),
        QueryInputIsReadFromYamlTest.class.getClassLoader());
  }

  private static List<ConfigProblem> problems(String yaml) {
    ConfigurationException e = catchThrowableOfType(ConfigurationException.class, () -> read(yaml));
    assertThat(e).as("problems in:%n%s", yaml).isNotNull();
    return e.problems();
  }

  private static QueryInput input(String yaml) {
    BatchJob job = read(yaml).section(BatchConfig.class).jobs().getFirst();
    return (QueryInput) job.input();
  }

  @Test
  void everyKeyIsRead() {
    QueryInputConfig config =
        input(
                DATA_SOURCES
                    + """
                    batch:
                      - name: copy
                        input:
                          query:
                            dataSource: orders-db
                            sql: SELECT * FROM orders WHERE id > :after AND region = :region ORDER BY id
                            keyColumn: id
                            fetchSize: 250
                            parameters: { region: EU }
                        steps: [ { name: load } ]
                    """)
            .config();

    assertThat(config.dataSource()).isEqualTo("orders-db");
    assertThat(config.keyColumn()).isEqualTo("id");
    assertThat(config.fetchSize()).isEqualTo(250);
    assertThat(config.bindsAfter()).isTrue();
    assertThat(config.statement().sql().names()).containsExactly("after", "region");
  }

  @Test
  void theFetchSizeIsAThousandByDefaultAndAfterIsOptional() {
    QueryInput input =
        input(
            DATA_SOURCES
                + """
                batch:
                  - name: copy
                    input:
                      query: { dataSource: orders-db, sql: "SELECT * FROM orders o ORDER BY o.id ASC", keyColumn: id }
                    steps: [ { name: load } ]
                """);

    assertThat(input.config().fetchSize()).isEqualTo(1000);
    assertThat(input.config().bindsAfter()).isFalse();
    assertThat(input.positionName()).isEqualTo("key");
    assertThat(input.describe()).isEqualTo("query on data source 'orders-db' keyed by id");
  }

  @Test
  void aQueryBesideAnotherKindIsRefusedNamingEveryKind() {
    List<ConfigProblem> problems =
        problems(
            DATA_SOURCES
                + """
                batch:
                  - name: copy
                    input:
                      csv: in.csv
                      query: { dataSource: orders-db, sql: SELECT * FROM o ORDER BY id, keyColumn: id }
                    steps: [ { name: load } ]
                """);

    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::rule)
        .contains(
            tuple(
                "batch[0].input",
                "must hold exactly one of: csv, jsonLines, generator, source, message, query"));
  }

  @Test
  void theSchemaHoldsQueryAmongTheInputsExactlyOneOfWithItsDefault() throws Exception {
    com.fasterxml.jackson.databind.JsonNode input =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(ConfigLoader.schema())
            .at("/$defs/batchInput");

    assertThat(input.at("/properties/query/required").toString())
        .isEqualTo("[\"dataSource\",\"sql\",\"keyColumn\"]");
    assertThat(input.at("/properties/query/properties/fetchSize/default").asInt()).isEqualTo(1000);
    assertThat(input.path("oneOf"))
        .extracting(branch -> branch.path("required").path(0).asText())
        .containsExactly("csv", "jsonLines", "generator", "source", "message", "query");
    assertThat(input.path("description").asText())
        .isEqualTo(
            "Where a batch job's records come from: exactly one of csv, jsonLines, generator,"
                + " source, message or query.");
  }

  @Test
  void brokenValuesAreReportedTogetherWithKeyValueRuleAndLine() {
    List<ConfigProblem> problems =
        problems(
            DATA_SOURCES
                + """
                batch:
                  - name: copy
                    input:
                      query:
                        dataSource: billing-db
                        sql: SELECT * FROM orders ORDER BY id
                        keyColumn: id
                    steps: [ { name: load } ]
                  - name: unkeyed
                    input:
                      query:
                        dataSource: orders-db
                        sql: SELECT * FROM orders ORDER BY id
                    steps: [ { name: load } ]
                  - name: unordered
                    input:
                      query:
                        dataSource: orders-db
                        sql: SELECT * FROM orders ORDER BY id DESC
                        keyColumn: id
                        parameters: { after: 5 }
                    steps: [ { name: load } ]
                """);

    assertThat(problems)
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule)
        .containsExactlyInAnyOrder(
            tuple(
                "batch[0].input.query.dataSource",
                "billing-db",
                "is not a data source of this configuration; its data sources: orders-db"),
            tuple("batch[1].input.query.keyColumn", "null", "is required"),
            tuple(
                "batch[2].input.query.sql",
                "SELECT * FROM orders ORDER BY id DESC",
                "must order its rows by keyColumn 'id', ascending (ORDER BY id): a resumed job"
                    + " reads on after the last key loaded"),
            tuple(
                "batch[2].input.query.parameters.after",
                "after",
                "is given by the input (the last key loaded, 0 at first); remove it"));
    assertThat(problems)
        .extracting(ConfigProblem::source)
        .containsExactlyInAnyOrder(
            "app.yaml:8:9", "app.yaml:14:7", "app.yaml:22:9", "app.yaml:24:23");
  }

  @Test
  void theSqlMustNameTheKeyColumnInItsOrder() {
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT * FROM t ORDER BY id", "id")).isTrue();
    assertThat(QueryInputConfig.Builder.ordersBy("select * from t order by t.\"id\" asc", "id"))
        .isTrue();
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT * FROM t ORDER BY id, x LIMIT 5", "id"))
        .isTrue();
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT * FROM t ORDER BY idx", "id")).isFalse();
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT * FROM t ORDER BY id DESC", "id"))
        .isFalse();
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT * FROM t ORDER BY name, id", "id"))
        .isFalse();
    assertThat(QueryInputConfig.Builder.ordersBy("SELECT id FROM t", "id")).isFalse();
  }
}
