package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineTest {

  @TempDir Path work;

  @Test
  void versionPrintsTheProjectVersion() {
    CliRun run = CliRun.of("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("sluice 0.").contains("JVM:");
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new String[] {"run", "validate", "jobs", "batch", "demo", "schema"}) {
      CliRun run = CliRun.of(command, "--help");
      assertThat(run.exitCode()).as(command).isZero();
      assertThat(run.out()).as(command).contains("Usage: sluice " + command);
    }
  }

  @Test
  void validateAcceptsTheExamples() {
    for (String example :
        new String[] {
          "file-copy.yaml",
          "scheduler.yaml",
          "http-hello.yaml",
          "jobs-invoices.yaml",
          "batch-orders.yaml",
          "db-poll-router.yaml",
          "db-batch-copy.yaml"
        }) {
      CliRun run = CliRun.of("validate", "../examples/" + example);
      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out()).contains("is valid");
    }
  }

  @Test
  void validateNamesTheJobHandlers() {
    CliRun run = CliRun.of("validate", "../examples/jobs-invoices.yaml");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("job handlers: {send-invoice=flow send-invoice}");
  }

  @Test
  void validateListsEveryErrorWithItsLineAndExitsTwo() throws Exception {
    Path config = work.resolve("bad.yaml");
    Files.writeString(
        config,
        """
        flows:
          - name: broken
            strategy:
              synchronous:
                receiver: { maxThreadsActive: 0 }
            source:
              scheduler: { frequency: 1s }
            processors:
              - logger: { mesage: "typo in the key" }
        """);
    CliRun run = CliRun.of("validate", config.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("maxThreadsActive")
        .contains("bad.yaml:5")
        .contains("mesage")
        .contains("bad.yaml:9");
  }

  @Test
  void aComponentThatCannotBeLoadedIsNamedWithTheClasspath() throws Exception {
    Path config = work.resolve("component.yaml");
    Files.writeString(
        config,
        """
        flows:
          - name: c
            processors:
              - component: { class: com.acme.Missing }
        """);
    CliRun run = CliRun.of("validate", config.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("com.acme.Missing")
        .contains("classpath")
        .contains("component.yaml:4");
  }

  @Test
  void runFailsNamingAMissingInputDirectory() throws Exception {
    Path config = work.resolve("missing.yaml");
    Files.writeString(
        config,
        """
        flows:
          - name: reader
            source:
              file: { directory: nowhere }
            processors:
              - logger: {}
        """);
    CliRun run = CliRun.of("run", config.toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("reader").contains(work.resolve("nowhere").toString());
  }

  @Test
  void aMissingConfigurationFileIsAnInvalidConfiguration() {
    CliRun run = CliRun.of("validate", work.resolve("absent.yaml").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("absent.yaml");
  }

  @Test
  void schemaPrintsTheJsonSchema() {
    CliRun run = CliRun.of("schema");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("\"$schema\"").contains("flows");
  }
}
