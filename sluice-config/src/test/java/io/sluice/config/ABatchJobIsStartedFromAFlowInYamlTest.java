package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchExecuteProcessor;
import io.sluice.core.Flow;
import org.junit.jupiter.api.Test;

/**
 * {@code batch-execute} in YAML: a flow (a scheduler's, say) starts one of the file's batch jobs.
 */
class ABatchJobIsStartedFromAFlowInYamlTest {

  private static final String JOBS =
      """
      batch:
        - name: nightly
          input: { generator: { count: 10 } }
          steps: [ { name: load } ]
      """;

  @Test
  void aScheduledFlowStartsTheJobThroughTheFilesLauncher() {
    Configuration configuration =
        Configs.read(
            """
            flows:
              - name: every-night
                source: { scheduler: { cron: "0 0 2 * * ?" } }
                processors:
                  - batch-execute: { job: nightly, target: started, resultFlow: report }
              - name: report
                processors: [ { logger: { message: "#[payload.state()]" } } ]
            """
                + JOBS);

    Flow flow = configuration.application().build().flows().getFirst();
    assertThat(flow.processors()).singleElement().isInstanceOf(BatchExecuteProcessor.class);
    assertThat(flow.processors().getFirst().name()).isEqualTo("batch-execute(nightly)");
    assertThat(configuration.batch().launcher().knows("nightly")).isTrue();
  }

  @Test
  void aJobOrAResultFlowTheFileDoesNotHaveIsRefusedNamingThoseItHas() {
    String yaml =
        """
        flows:
          - name: start
            processors:
              - batch-execute: { job: weekly, resultFlow: reprot }
        """
            + JOBS;

    assertThat(Configs.rule(yaml, "flows[0].processors[0].batch-execute.job"))
        .isEqualTo("is not a batch job of this configuration; its batch jobs: nightly");
    assertThat(Configs.rule(yaml, "flows[0].processors[0].batch-execute.resultFlow"))
        .isEqualTo("is not a flow of this configuration; its flows: start");
  }
}
