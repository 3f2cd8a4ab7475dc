package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --properties FILE} and {@code --property NAME=VALUE} give the {@code ${NAME}} placeholders
 * of the configuration their values, for {@code validate}, {@code run} and the commands that open
 * the configured store.
 */
class PropertiesFilesFeedThePlaceholdersOfEveryCommandTest {

  @TempDir Path work;

  private Path config(String yaml) throws Exception {
    return Files.writeString(work.resolve("app.yaml"), yaml);
  }

  @Test
  void validateTakesPropertiesFilesALaterOneWinningAndPropertiesOverThem() throws Exception {
    Path app = config("flows:\n  - name: ${FIRST}\n  - name: ${SECOND}\n  - name: ${THIRD}\n");
    Path base = Files.writeString(work.resolve("base.properties"), "FIRST=a\nSECOND=b\nTHIRD=c\n");
    Path prod = Files.writeString(work.resolve("prod.properties"), "SECOND=prod\nTHIRD=prod\n");

    CliRun run =
        CliRun.of(
            "validate",
            app.toString(),
            "--properties",
            base.toString(),
            "--properties",
            prod.toString(),
            "--property",
            "THIRD=given");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains(": a (auto), prod (auto), given (auto)");
  }

  @Test
  void anUnsetPlaceholderIsRefusedAtItsLineNamingIt() throws Exception {
    Path app =
        config(
            "flows:\n  - name: orders\n    source:\n      file:\n        directory: ${IN_DIR_NOT_SET_ANYWHERE}\n");

    CliRun.of("validate", app.toString())
        .assertRefused(
            "app.yaml:5:20: flows[0].source.file.directory: value '${IN_DIR_NOT_SET_ANYWHERE}' is"
                + " not set: no properties file given, system property or environment variable"
                + " is named IN_DIR_NOT_SET_ANYWHERE");
  }

  @Test
  void aMissingPropertiesFileIsRefusedBeforeTheConfigurationIsRead() throws Exception {
    Path app = config("flows: [ { name: a } ]\n");
    Path missing = work.resolve("nowhere.properties");

    CliRun.of("validate", app.toString(), "--properties", missing.toString())
        .assertRefused("(properties file): value '" + missing + "' does not exist");
    CliRun.of("run", app.toString(), "--properties", missing.toString())
        .assertRefused("(properties file): value '" + missing + "' does not exist");
  }

  @Test
  void theStoreCommandsResolveTheirConfigurationsPlaceholdersToo() throws Exception {
    Path app =
        config(
            """
            sluice:
              store:
                dataDir: ${DATA_DIR}
            flows: [ { name: a } ]
            """);

    CliRun jobs = CliRun.of("jobs", "stats", app.toString(), "--property", "DATA_DIR=jobs-data");
    CliRun batch = CliRun.of("batch", "list", app.toString(), "--property", "DATA_DIR=batch-data");

    assertThat(jobs.exitCode()).as(jobs.err()).isZero();
    assertThat(batch.exitCode()).as(batch.err()).isZero();
    assertThat(work.resolve("jobs-data/sluice.db")).exists();
    CliRun.of("batch", "list", app.toString())
        .assertRefused("sluice.store.dataDir: value '${DATA_DIR}' is not set");
  }

  @Test
  void theHelpOfEachCommandShowsTheOptionsWithTheirPlaceholdersWritten() {
    for (String[] command :
        new String[][] {
          {"validate"}, {"run"}, {"jobs", "list"}, {"batch", "run"}, {"batch", "list"}
        }) {
      String[] help = Arrays.copyOf(command, command.length + 1);
      help[command.length] = "--help";
      CliRun run = CliRun.of(help);
      assertThat(run.out())
          .as(String.join(" ", command))
          .contains("--properties=FILE")
          .contains("--property=NAME=VALUE")
          .contains("A value for ${NAME}, over every properties file");
    }
    assertThat(CliRun.of("validate", "--help").out()).contains("${env:NAME}, ${sys:name}");
  }
}
