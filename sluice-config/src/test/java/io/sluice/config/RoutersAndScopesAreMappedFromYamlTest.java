package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.sluice.core.ConfigProblem;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every router and scope is written in YAML, mapped, and runs; their mistakes carry their line. */
class RoutersAndScopesAreMappedFromYamlTest {

  private static Message send(Application app, String flow, Object payload) throws Exception {
    return app.send(flow, Message.of(payload)).get(20, TimeUnit.SECONDS);
  }

  @Test
  void choiceForeachRetriesAndRoutesRunFromYaml() throws Exception {
    String yaml =
        """
        flows:
          - name: orders
            processors:
              - choice:
                  name: by-country
                  when:
                    - expression: "payload.country == 'FR'"
                      processors:
                        - set-variable: { name: region, value: eu }
                  otherwise:
                    - set-variable: { name: region, value: world }
              - foreach:
                  collection: payload.lines
                  processors:
                    - set-variable: { name: skus, value: "#[(vars.skus == null ? '' : vars.skus) + payload.sku]" }
              - until-successful: { maxRetries: 2, delay: 1ms, processors: [ { round-robin: { routes: [ { processors: [] } ] } } ] }
              - first-successful:
                  routes:
                    - processors: [ { expression: { expression: "payload.nope.call()" } } ]
                    - processors: [ { set-variable: { name: second, value: "yes" } } ]
              - parallel-foreach:
                  collection: "[1, 2, 3]"
                  maxConcurrency: 2
                  processors: [ { set-payload: { value: "#[payload * 10]" } } ]
        """;
    try (Application app = Configs.build(yaml)) {
      app.start();
      Message out =
          send(
              app,
              "orders",
              Map.of("country", "FR", "lines", List.of(Map.of("sku", "a"), Map.of("sku", "b"))));
      assertThat(out.variable("region")).isEqualTo("eu");
      assertThat(out.variable("skus")).isEqualTo("ab");
      assertThat(out.variable("second")).isEqualTo("yes");
      assertThat(out.payload()).isEqualTo(List.of(10, 20, 30));
    }
  }

  @Test
  void theScatterGatherResultAndTheTryRecoveryAreWhatTheFlowSees() throws Exception {
    String yaml =
        """
        flows:
          - name: fan
            processors:
              - scatter-gather:
                  routes:
                    - name: stock
                      processors: [ { set-payload: { value: "in stock" } } ]
                    - name: price
                      processors: [ { flow-ref: pricing } ]
              - try:
                  processors:
                    - expression: { expression: "payload.missing.call()" }
                  errorHandler:
                    - onErrorContinue:
                        types: [EXPRESSION]
                        processors:
                          - set-variable: { name: recovered, value: "#[error.errorType]" }
          - name: pricing
            processors:
              - set-payload: { value: "42.00" }
        """;
    try (Application app = Configs.build(yaml)) {
      app.start();
      Message out = send(app, "fan", "order");
      assertThat(out.payload()).isEqualTo(Map.of("stock", "in stock", "price", "42.00"));
      assertThat(out.variable("recovered")).isEqualTo("SLUICE:EXPRESSION");
    }
  }

  @Test
  void mistakesAreReportedTogetherWithTheirLines() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            flows:
              - name: broken
                processors:
                  - choice:
                      when:
                        - expression: "payload =="
                  - flow-ref: nowhere
                  - scatter-gather:
                      routes:
                        - name: a
                        - name: a
                  - until-successful: { maxRetries: -1 }
                  - foreach: { batchSize: 0 }
            """);
    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::source)
        .contains(
            tuple("flows[0].processors[0].choice.when[0].expression", "app.yaml:6:15"),
            tuple("flows[0].processors[1].flow-ref", "app.yaml:7:9"),
            tuple("flows[0].processors[2].scatter-gather.routes[1].name", "app.yaml:11:15"),
            tuple("flows[0].processors[3].until-successful.maxRetries", "app.yaml:12:29"),
            tuple("flows[0].processors[4].foreach.batchSize", "app.yaml:13:20"));
    assertThat(problems)
        .filteredOn(p -> p.path().endsWith("flow-ref"))
        .extracting(ConfigProblem::rule)
        .containsExactly("names no flow of this file; the flows are [broken]");
  }

  @Test
  void aFlowRefInABatchStepIsRefusedByValidateNotAtRun() {
    assertThat(
            Configs.rule(
                """
                flows: [ { name: enrich } ]
                batch:
                  - name: nightly
                    input: { generator: { count: 3 } }
                    steps: [ { name: one, processors: [ { flow-ref: enrich } ] } ]
                """,
                "batch[0].steps[0].processors[0].flow-ref"))
        .startsWith("cannot reach a flow of the file from a batch job");
  }
}
