package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.ConfigProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Mule or Camunda name is answered with what Sluice calls it at that place. */
class FamiliarNamesAreRecognisedTest {

  @Test
  void eachForeignNameIsOneProblemAtItsLineNamingSluicesKey() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            sluice:
              jobs:
                maxJobsPerAcquisition: 3
                lockTimeInMillis: 300000
                maxThreadsActive: 8
                backoff-time-in-millis: 50
            flows:
              - name: orders
                processingStrategy: queued-asynchronous
                strategy:
                  synchronous:
                    receiver: { threadTTL: 60000, maxThreadsActive: 4 }
                source:
                  file: { directory: in, fileAge: 500 }
              - name: audit
                strategy:
                  synchronous: { maxThreadsActive: 4 }
            """);

    assertThat(problems)
        .extracting(ConfigProblem::path, ConfigProblem::source)
        .containsExactly(
            tuple("sluice.jobs.maxJobsPerAcquisition", "app.yaml:3:5"),
            tuple("sluice.jobs.lockTimeInMillis", "app.yaml:4:5"),
            tuple("sluice.jobs.maxThreadsActive", "app.yaml:5:5"),
            tuple("sluice.jobs.backoff-time-in-millis", "app.yaml:6:5"),
            tuple("flows[0].processingStrategy", "app.yaml:9:5"),
            tuple("flows[0].strategy.synchronous.receiver.threadTTL", "app.yaml:12:21"),
            tuple("flows[0].source.file.fileAge", "app.yaml:14:30"),
            tuple("flows[1].strategy.synchronous.maxThreadsActive", "app.yaml:17:22"));
    assertThat(problems)
        .extracting(ConfigProblem::rule)
        .satisfiesExactly(
            rule ->
                assertThat(rule)
                    .startsWith("is not a known key; that is Camunda's name;")
                    .contains("Sluice calls it 'jobsPerCycle' (with acquisition: optimistic"),
            rule ->
                assertThat(rule)
                    .isEqualTo(
                        "is not a known key; that is Camunda's name, and Sluice has no such"
                            + " setting: it keeps a lease per node instead of a lock time per"
                            + " job: see leaseDuration and heartbeatInterval"),
            rule ->
                assertThat(rule)
                    .as("not a key of sluice.jobs: Mule's name, which Sluice calls concurrency")
                    .startsWith(
                        "is not a known key; that is Mule's name; Sluice calls it"
                            + " 'concurrency'"),
            rule ->
                assertThat(rule)
                    .as("Spring Boot's spelling of Camunda's name")
                    .isEqualTo(
                        "is not a known key; that is Camunda's name; Sluice calls it"
                            + " 'acquisitionBackoff' (a duration such as 50ms, where Camunda's is"
                            + " milliseconds; with acquisition: optimistic)"),
            rule -> assertThat(rule).contains("Mule's name; Sluice calls it 'strategy'"),
            rule ->
                assertThat(rule)
                    .isEqualTo(
                        "is not a known key; that is Mule's name; Sluice calls it 'idleTtl' (a"
                            + " duration such as 60s, where Mule's is milliseconds)"),
            rule -> assertThat(rule).contains("Mule's name; Sluice calls it 'minAge'"),
            rule ->
                assertThat(rule)
                    .startsWith("is not a key here; Sluice has it at 'receiver.maxThreadsActive'"));
  }

  @Test
  void aGenuinelyUnknownKeyIsStillUnknownWithASuggestion() {
    assertThat(
            Configs.rule(
                "sluice: { jobs: { concurency: 8 } }\nflows: []", "sluice.jobs.concurency"))
        .startsWith("is not a known key; did you mean 'concurrency'? allowed here: nodeId,");
    assertThat(
            Configs.rule(
                """
                flows:
                  - name: f
                    strategy: { staged: { flow: { max-threads-active-count: 4 } } }
                """,
                "flows[0].strategy.staged.flow.max-threads-active-count"))
        .as("too far from any key, and no other product's name")
        .startsWith("is not a known key; allowed here: maxThreadsActive, maxThreadsIdle, maxQueue");
  }

  @Test
  void aSluiceKeyWrittenInAnotherCaseOrWithDashesIsSuggested() {
    assertThat(
            Configs.rule(
                """
                flows:
                  - name: f
                    strategy: { synchronous: { receiver: { max-threads-active: 4 } } }
                """,
                "flows[0].strategy.synchronous.receiver.max-threads-active"))
        .startsWith("is not a known key; did you mean 'maxThreadsActive'?");
    assertThat(
            Configs.rule(
                """
                sluice: { jobs: { ACQUISITION_BACKOFF_FACTOR: 2 } }
                flows: []
                """,
                "sluice.jobs.ACQUISITION_BACKOFF_FACTOR"))
        .startsWith("is not a known key; did you mean 'acquisitionBackoffFactor'?");
  }
}
