package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.batch.AcceptPolicy;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.spi.Threads;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ProcessingStrategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchJobsAreMappedFromYamlTest {

  @Test
  void everyKeyOfAJobAndItsStepsIsRead() {
    BatchConfig batch =
        Configs.read(
                """
                batch:
                  - name: import-orders
                    input: { csv: in/orders.csv }
                    blockSize: 250
                    maxFailedRecords: -1
                    threads: 4
                    steps:
                      - name: parse
                        processors:
                          - set-variable: { name: seen, value: "#[true]" }
                          - expression: { expression: "payload.amount" }
                      - name: report
                        accept: ONLY_FAILURES
                        acceptExpression: "vars.position > 1"
                        aggregator:
                          size: 50
                          sink: [ { logger: {} } ]
                      - name: load
                        accept: ALL
                        aggregator: { streaming: true, sink: [ { logger: {} }, { logger: {} } ] }
                    onComplete:
                      - logger: { message: "#[payload.state()]" }
                  - name: events
                    input: { jsonLines: /var/events.jsonl }
                    steps: [ { name: copy } ]
                """)
            .section(BatchConfig.class);

    assertThat(batch.names()).containsExactly("import-orders", "events");
    BatchJob job = batch.job("import-orders").orElseThrow();
    assertThat(job.input().describe()).isEqualTo("/etc/sluice/in/orders.csv");
    assertThat(job.blockSize()).isEqualTo(250);
    assertThat(job.maxFailedRecords()).isEqualTo(BatchJob.UNLIMITED);
    assertThat(job.strategy())
        .isInstanceOfSatisfying(
            ProcessingStrategy.Synchronous.class,
            s -> assertThat(s.receiver().maxThreadsActive()).isEqualTo(4));
    assertThat(job.steps())
        .extracting(
            BatchStep::name,
            BatchStep::accept,
            BatchStep::acceptExpression,
            s -> s.processors().size(),
            s -> s.aggregator() == null ? "-" : s.aggregator().toString(),
            s -> s.aggregator() == null ? 0 : s.aggregator().sink().size())
        .containsExactly(
            tuple("parse", AcceptPolicy.NO_FAILURES, null, 2, "-", 0),
            tuple(
                "report",
                AcceptPolicy.ONLY_FAILURES,
                "vars.position > 1",
                0,
                "aggregator of 50",
                1),
            tuple("load", AcceptPolicy.ALL, null, 0, "streaming aggregator", 2));
    assertThat(job.onCompleteProcessors()).hasSize(1);
    assertThat(batch.job("events").orElseThrow().input().describe()).isEqualTo("/var/events.jsonl");
  }

  @Test
  void unsetKeysTakeTheDefaultsAndAFileMayHoldOnlyBatchJobs() {
    Configuration configuration =
        Configs.read(
            """
            batch:
              - name: numbers
                input: { generator: { count: 3 } }
                threads: auto
                steps: [ { name: copy } ]
            """);

    assertThat(configuration.application().build().flows()).isEmpty();
    BatchJob job = configuration.section(BatchConfig.class).jobs().getFirst();
    assertThat(job.blockSize()).isEqualTo(BatchJob.DEFAULT_BLOCK_SIZE);
    assertThat(job.maxFailedRecords()).isZero();
    assertThat(job.strategy()).isInstanceOf(ProcessingStrategy.Auto.class);
    assertThat(job.steps().getFirst().accept()).isEqualTo(AcceptPolicy.NO_FAILURES);
    assertThat(job.onCompleteProcessors()).isEmpty();
    assertThat(payloads(job.input(), 3)).containsExactly(0L, 1L, 2L);
    assertThat(Configs.read("flows: [ { name: bare } ]").section(BatchConfig.class).jobs())
        .isEmpty();
  }

  @Test
  void aGeneratorsPayloadIsATemplateOfTheRecordsIndex() {
    BatchJob job =
        Configs.read(
                """
                batch:
                  - name: orders
                    input:
                      generator: { count: 2, payload: "order-#[payload],#[payload * 10]" }
                    steps: [ { name: copy } ]
                """)
            .section(BatchConfig.class)
            .jobs()
            .getFirst();

    assertThat(job.input().expectedRecords()).hasValue(2);
    assertThat(payloads(job.input(), 2)).containsExactly("order-0,0", "order-1,10");
  }

  private static List<Object> payloads(BatchInput input, int count) {
    List<Object> payloads = new ArrayList<>();
    try (BatchInput.Reader reader = input.open(0)) {
      for (int i = 0; i < count; i++) {
        payloads.add(reader.next().payload());
      }
    }
    return payloads;
  }

  private static final String BROKEN =
      """
      batch:
        - name: orders
          input: { generator: { count: 5, payload: "#[payload +]" } }
          blockSize: 0
          maxFailedRecords: -2
          threads: fast
          steps:
            - name: parse
              acceptExpression: "payload >"
              processors:
                - expression: { expression: "payload.(" }
            - name: parse
            - name: input
            - name: load
              aggregator: { size: 10, streaming: true, sink: [ { logger: {} } ] }
            - name: sink
              aggregator: { size: 10, sink: [] }
          onComplete:
            - set-payload: { value: "#[never closed" }
        - name: orders
          input: { xml: orders.xml }
          steps: []
      """;

  @Test
  void everyBrokenRuleIsReportedAtOnceWithItsKeyValueRuleAndLine() {
    assertThat(Configs.problems(BROKEN))
        .extracting(ConfigProblem::source, ConfigProblem::path, p -> String.valueOf(p.value()))
        .containsExactly(
            tuple("app.yaml:3:37", "batch[0].input.generator.payload", "payload +"),
            tuple("app.yaml:4:5", "batch[0].blockSize", "0"),
            tuple("app.yaml:5:5", "batch[0].maxFailedRecords", "-2"),
            tuple("app.yaml:6:5", "batch[0].threads", "fast"),
            tuple("app.yaml:9:9", "batch[0].steps[0].acceptExpression", "payload >"),
            tuple(
                "app.yaml:11:27",
                "batch[0].steps[0].processors[0].expression.expression",
                "payload.("),
            tuple("app.yaml:12:9", "batch[0].steps[1].name", "parse"),
            tuple("app.yaml:13:9", "batch[0].steps[2].name", "input"),
            tuple("app.yaml:15:9", "batch[0].steps[3].aggregator", "size, streaming, sink"),
            tuple("app.yaml:17:33", "batch[0].steps[4].aggregator.sink", "null"),
            tuple("app.yaml:19:24", "batch[0].onComplete[0].set-payload.value", "#[never closed"),
            tuple("app.yaml:20:5", "batch[1].name", "orders"),
            tuple("app.yaml:21:5", "batch[1].input", "xml"),
            tuple("app.yaml:21:14", "batch[1].input.xml", "xml"),
            tuple("app.yaml:22:5", "batch[1].steps", "[]"));
  }

  @Test
  void theRulesSayWhatIsWrong() {
    assertThat(rule("batch[0].threads")).isEqualTo(Threads.RULE);
    assertThat(rule("batch[0].steps[0].acceptExpression")).startsWith("does not compile");
    assertThat(rule("batch[0].steps[1].name"))
        .isEqualTo(
            "must be unique; the step at batch[0].steps[0].name (app.yaml:8:9) has this name too");
    assertThat(rule("batch[0].steps[2].name")).isEqualTo("a step needs a name other than 'input'");
    assertThat(rule("batch[0].steps[3].aggregator"))
        .isEqualTo("must hold exactly one of: size, streaming");
    assertThat(rule("batch[0].steps[4].aggregator.sink"))
        .isEqualTo("needs at least one processor, none null");
    assertThat(rule("batch[1].name"))
        .isEqualTo(
            "must be unique; the batch job at batch[0].name (app.yaml:2:5) has this name too");
    assertThat(rule("batch[1].input.xml")).startsWith("is not a known key");
  }

  private static String rule(String path) {
    return Configs.rule(BROKEN, path);
  }

  @Test
  void batchJobsNeedADurableStore() {
    assertThat(
            Configs.problems(
                """
                sluice:
                  store: { type: memory }
                batch:
                  - name: numbers
                    input: { generator: { count: 3 } }
                    steps: [ { name: copy } ]
                """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sluice.store.type");
              assertThat(p.rule()).startsWith("cannot keep batch blocks").contains("sqlite");
              assertThat(p.source()).isEqualTo("app.yaml:2:12");
            });
  }
}
