package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.batch.BatchExecuteProcessor;
import io.sluice.batch.config.BatchConfig;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code batch-execute} in YAML: a flow (a scheduler's, say) starts one of the file's batch jobs.
 */
class ABatchJobIsStartedFromAFlowInYamlTest {

  @TempDir Path dir;

  @Test
  void aSchedulerFlowStartsTheJobAndTheResultFlowGetsItsResult() throws Exception {
    Configuration configuration =
        ConfigLoader.read(
            "app.yaml",
            """
            sluice:
              store: { dataDir: data }
            flows:
              - name: every-hour
                source: { scheduler: { frequency: 1h, startDelay: 0s } }
                processors:
                  - batch-execute: { job: hourly, resultFlow: report }
                  - set-payload: { value: "#[vars.batchInstance]" }
                sinks:
                  - file-write: { directory: out, fileName: started.txt }
              - name: report
                processors:
                  - set-payload: { value: "#[payload.instance() + ' ' + payload.state() + ' ' + payload.processed()]" }
                sinks:
                  - file-write: { directory: out, fileName: result.txt }
            batch:
              - name: hourly
                input: { generator: { count: 250 } }
                steps: [ { name: load, processors: [ { set-payload: { value: "#[payload * 2]" } } ] } ]
            """,
            dir,
            getClass().getClassLoader());
    Application app = configuration.application().build();
    configuration.section(BatchConfig.class).launcher().bind(app);
    app.start();
    try {
      Path result = dir.resolve("out/result.txt");
      Path startedFile = dir.resolve("out/started.txt");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.exists(result) && Files.exists(startedFile));
      String started = Files.readString(startedFile);
      assertThat(result).hasContent(started + " COMPLETED 250");
    } finally {
      configuration.section(BatchConfig.class).launcher().stopAll(Duration.ofSeconds(30));
      app.stop();
    }
  }

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
    assertThat(configuration.section(BatchConfig.class).launcher().knows("nightly")).isTrue();
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
