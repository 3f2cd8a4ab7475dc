package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class JobsExampleRunsAsAProcessTest {

  private static final Pattern THREE_EXECUTED =
      Pattern.compile("(?m)^sluice_jobs_executed_total\\{node=\"[^\"]+\"} 3\\.0$");

  @TempDir Path work;

  @Test
  void sluiceRunRunsTheJobsThroughTheirFlowAndStopsCleanlyOnSigterm() throws Exception {
    Path config = work.resolve("jobs-invoices.yaml");
    Files.copy(Path.of("../examples/jobs-invoices.yaml"), config);
    for (int i = 1; i <= 3; i++) {
      CliRun created =
          CliRun.of(
              "jobs",
              "create",
              config.toString(),
              "--type",
              "send-invoice",
              "--payload",
              "INV-" + i);
      assertThat(created.exitCode()).as(created.err()).isZero();
    }

    try (SluiceProcess sluice =
        SluiceProcess.start(work, "run", "jobs-invoices.yaml", "--management-port", "0")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  FileCopyExampleRunsAsAProcessTest.count(work.resolve("out")) == 3
                      || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  THREE_EXECUTED.matcher(FileCopyExampleRunsAsAProcessTest.scrape(sluice)).find());
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
      assertThat(sluice.log())
          .contains("Job handlers: {send-invoice=flow send-invoice}")
          .contains("flow(s) and job node ")
          .contains("sending invoice INV-3")
          .contains("Stopped cleanly");
    }
    for (int i = 1; i <= 3; i++) {
      assertThat(work.resolve("out/INV-" + i + ".txt")).hasContent("INV-" + i);
    }
    CliRun stats = CliRun.of("jobs", "stats", config.toString());
    assertThat(stats.out())
        .as("every job completed; err: %s", stats.err())
        .isEqualTo("no unfinished job" + System.lineSeparator());
  }
}
