package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DemoRunsABatchJobOrTheFlowsTest {

  @Test
  void theDemoRunsABatchJobToItsEndAndSaysWhatTheSinkReceived() {
    CliRun run = CliRun.of("demo", "--records", "100000", "--progress", "none");

    assertThat(run.exitCode()).as("out: %s; err: %s", run.out(), run.err()).isZero();
    assertThat(run.out())
        .contains("Batch job demo-orders, instance 1: COMPLETED")
        .contains("100,000 loaded, 100,000 processed, 99,998 successful, 2 failed")
        .contains("record 50000, at orders: IllegalArgumentException: unitPrice 'n/a'")
        .contains("record 100000, at orders: IllegalArgumentException: the line has 3 field(s)")
        .contains("The sink received 99,998 orders in ");
  }

  @Test
  void theFlowsDemoIsThereToo() {
    CliRun run = CliRun.of("demo", "--flows", "--files", "20");

    assertThat(run.exitCode()).as("out: %s; err: %s", run.out(), run.err()).isZero();
    assertThat(run.out()).contains("Done: 20 of 20 files").contains("stopped cleanly");
  }
}
