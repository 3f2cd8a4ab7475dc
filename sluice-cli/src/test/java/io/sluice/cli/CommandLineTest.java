package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
    for (String command :
        new String[] {"run", "validate", "jobs", "batch", "demo", "schema", "completion"}) {
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
  void validateGivesJsonForScriptsAndEditors() throws Exception {
    CliRun valid = CliRun.of("validate", "../examples/jobs-invoices.yaml", "--output", "json");
    assertThat(valid.exitCode()).as(valid.err()).isZero();
    JsonNode ok = new ObjectMapper().readTree(valid.out());
    assertThat(ok.get("valid").asBoolean()).isTrue();
    assertThat(ok.get("flows").get(0).get("name").asText()).isEqualTo("send-invoice");
    assertThat(ok.get("jobHandlers").get("send-invoice").asText()).isEqualTo("flow send-invoice");

    Path config = work.resolve("bad.yaml");
    Files.writeString(
        config,
        """
        flows:
          - name: broken
            source:
              scheduler: { frequency: 1s }
            processors:
              - logger: { mesage: "typo in the key" }
        """);
    CliRun invalid = CliRun.of("validate", config.toString(), "-o", "json");
    assertThat(invalid.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(invalid.err()).as("the problems are on standard output, for the script").isEmpty();
    JsonNode bad = new ObjectMapper().readTree(invalid.out());
    assertThat(bad.get("valid").asBoolean()).isFalse();
    JsonNode problem = bad.get("problems").get(0);
    assertThat(problem.get("path").asText()).contains("mesage");
    assertThat(problem.get("source").asText()).startsWith("bad.yaml:6:");
    assertThat(problem.get("rule").asText()).isNotBlank();
    assertThat(problem.get("message").asText()).contains("bad.yaml:6");
  }

  @Test
  void completionCompletesCommandsOptionsAndTheirValuesInARealBash() throws Exception {
    CliRun run = CliRun.of("completion", "bash");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Path script = work.resolve("sluice-completion.bash");
    Files.writeString(script, run.out());
    assertThat(complete(script, "sluice ")).contains("run", "validate", "jobs", "completion");
    assertThat(complete(script, "sluice jobs ")).contains("list", "incidents", "stats");
    assertThat(complete(script, "sluice jobs list --out")).contains("--output");
    assertThat(complete(script, "sluice jobs list --output ")).containsExactly("text", "json");
    assertThat(CliRun.of("completion", "zsh").out()).isEqualTo(run.out());
    assertThat(CliRun.of("completion", "fish").exitCode()).isEqualTo(ExitCodes.INVALID);
  }

  /** What bash offers for {@code line} (the cursor at its end) with {@code script} loaded. */
  private static java.util.List<String> complete(Path script, String line) throws Exception {
    String[] words = line.endsWith(" ") ? (line + "''").split(" ") : line.split(" ");
    String probe =
        "source '"
            + script
            + "' 2>/dev/null; COMP_WORDS=("
            + String.join(" ", words)
            + "); COMP_CWORD="
            + (words.length - 1)
            + "; COMP_LINE='"
            + line
            + "'; COMP_POINT=${#COMP_LINE}; _complete_sluice sluice 2>/dev/null;"
            + " printf '%s\\n' \"${COMPREPLY[@]}\"";
    Process bash = new ProcessBuilder("bash", "-c", probe).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes());
    assertThat(bash.waitFor()).as(out).isZero();
    return out.lines().filter(l -> !l.isBlank()).toList();
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
