package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.ConfigProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaErrorsAreReportedTogetherTest {

  private static final String BROKEN =
      """
      sluice:
        vmQueueCapacity: lots
      flows:
        - nmae: typo
          name: orders
          strategy:
            synchronous:
              receiver:
                maxThreadsActive: 0
                exhaustedAction: WIAT
                idleTtl: 10 minutes
          source:
            vm-listener: { consumers: 2 }
          processors:
            - logger: { level: LOUD }
            - frobnicate: {}
        - name: both
          strategy: { synchronous: {}, auto: {} }
      """;

  @Test
  void everyViolationIsReportedWithPathValueRuleAndLine() {
    List<ConfigProblem> problems = Configs.problems(BROKEN);
    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::value, ConfigProblem::source)
        .containsExactly(
            tuple("sluice.vmQueueCapacity", "lots", "app.yaml:2:3"),
            tuple("flows[0].nmae", "nmae", "app.yaml:4:5"),
            tuple("flows[0].strategy.synchronous.receiver.maxThreadsActive", 0, "app.yaml:9:11"),
            tuple(
                "flows[0].strategy.synchronous.receiver.exhaustedAction", "WIAT", "app.yaml:10:11"),
            tuple("flows[0].strategy.synchronous.receiver.idleTtl", "10 minutes", "app.yaml:11:11"),
            tuple("flows[0].source.vm-listener.queue", null, "app.yaml:13:7"),
            tuple("flows[0].processors[0].logger.level", "LOUD", "app.yaml:15:19"),
            tuple("flows[0].processors[1].frobnicate", "frobnicate", "app.yaml:16:9"),
            tuple("flows[1].strategy", "synchronous, auto", "app.yaml:18:5"));
  }

  @Test
  void rulesAreWrittenInWords() {
    List<ConfigProblem> problems = Configs.problems(BROKEN);
    assertThat(problems)
        .extracting(ConfigProblem::rule)
        .containsExactly(
            "must be an integer, not a string",
            "is not a known key; did you mean 'name'? allowed here: name, strategy, source,"
                + " processors, sinks, errorHandler",
            "must be at least 1",
            "must be one of: WAIT, REJECT, CALLER_RUNS, DISCARD, DISCARD_OLDEST",
            "must be a duration: a whole number with a unit (500ms, 30s, 2m, 1h, 7d) or ISO-8601 (PT30S)",
            "is required",
            "must be one of: TRACE, DEBUG, INFO, WARN, ERROR",
            "is not a known key; allowed here: logger, set-payload, set-variable, expression,"
                + " component, async, choice, foreach, parallel-foreach, scatter-gather,"
                + " first-successful, round-robin, until-successful, split, aggregate, try, flow-ref,"
                + " vm-publish,"
                + " vm-request, file-write, store-put, store-get, store-remove,"
                + " batch-execute, db-select, db-insert, db-update, db-delete, db-execute, db-bulk,"
                + " read, write, transform, http-request",
            "must hold exactly one of: synchronous, staged, auto");
  }

  @Test
  void theMessageListsEveryProblemWithItsPosition() {
    assertThat(Configs.problems(BROKEN).toString())
        .contains(
            "app.yaml:9:11: flows[0].strategy.synchronous.receiver.maxThreadsActive:"
                + " value '0' must be at least 1");
  }

  @Test
  void aFileWithNeitherFlowsNorBatchJobsIsReportedOnce() {
    assertThat(Configs.problems("sluice: { shutdownTimeout: 1s }"))
        .extracting(ConfigProblem::path, ConfigProblem::rule)
        .containsExactly(
            tuple(
                "flows",
                "is required unless batch is given: a file declares flows, batch jobs or both"));
  }

  @Test
  void aFileThatIsNotAMapIsReportedAsAWhole() {
    assertThat(Configs.problems("- name: a\n"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("(file)");
              assertThat(p.rule()).isEqualTo("must be a map, not a list");
              assertThat(p.source()).isEqualTo("app.yaml:1:1");
            });
  }

  @Test
  void aBareNumberWhereADurationBelongsSaysWhatADurationLooksLike() {
    assertThat(Configs.problems("sluice: { shutdownTimeout: 5 }\nflows: []\n"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.path()).isEqualTo("sluice.shutdownTimeout");
              assertThat(p.rule())
                  .startsWith("must be a duration: a whole number with a unit")
                  .endsWith("not a bare number");
            });
  }
}
