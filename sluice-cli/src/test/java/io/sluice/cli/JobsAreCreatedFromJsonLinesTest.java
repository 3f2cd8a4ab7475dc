package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sluice jobs create --file: many jobs in one command and one transaction, on embedded SQLite. */
class JobsAreCreatedFromJsonLinesTest {

  @TempDir Path work;

  private Path config;

  @BeforeEach
  void writeTheConfiguration() throws Exception {
    config = work.resolve("app.yaml");
    Files.writeString(
        config,
        """
        sluice:
          store: { dataDir: data }
        flows: [ { name: bare } ]
        """);
  }

  private CliRun jobs(String command, String... args) {
    List<String> line = new ArrayList<>(List.of("jobs", command, config.toString()));
    line.addAll(List.of(args));
    return CliRun.of(line.toArray(String[]::new));
  }

  @Test
  void everyLineOfTheFileIsCreatedWithItsFields() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      lines.add("{\"type\": \"send\", \"payload\": \"INV-" + i + "\"}");
    }
    lines.add("");
    lines.add(
        "{\"type\": \"report\", \"payload\": {\"month\": 3, \"lines\": [1, 2]}, \"priority\": 7,"
            + " \"due\": \"2030-01-31T08:00:00Z\", \"retries\": 5, \"key\": \"march\"}");
    lines.add("{\"type\": \"report\", \"payload\": \"again\", \"key\": \"march\"}");
    lines.add("{\"type\": \"ship\", \"payload\": \"box\", \"exclusiveKey\": \"order-7\"}");
    Path file = Files.write(work.resolve("jobs.jsonl"), lines);

    CliRun created = jobs("create", "--file", file.toString());

    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out())
        .isEqualTo(
            "created or found by key 1002 job(s) for 1003 line(s) of "
                + file
                + " in one transaction: ids 1 to 1003"
                + System.lineSeparator());
    assertThat(jobs("show", "1001").out())
        .contains("type:          report")
        .contains("priority:      7")
        .contains("due:           2030-01-31T08:00:00Z")
        .contains("retries left:  5")
        .contains("unique key:    march")
        .contains("exclusive key: -");
    assertThat(jobs("show", "1003").out()).contains("exclusive key: order-7");
    assertThat(jobs("stats").out())
        .containsPattern("\\nsend +1000 ")
        .containsPattern("\\nreport +1 ");
  }

  @Test
  void aBadLineIsNamedByItsNumberAndNoJobIsCreated() throws Exception {
    Path file =
        Files.write(
            work.resolve("jobs.jsonl"),
            List.of(
                "{\"type\": \"send\", \"payload\": \"a\"}",
                "{\"type\": \"send\", \"payload\": \"b\", \"priority\": 500}",
                "{\"type\": \"send\", \"payload\": \"c\"}",
                "{\"type\": \"send\", \"payload\": \"d\", \"exclusive\": true}",
                "{\"type\": \"send\", \"payload\": \"e\"",
                "{\"type\": \"send\", \"payload\": \"f\", \"due\": \"tomorrow\"}",
                "{\"payload\": \"g\"}"));

    CliRun created = jobs("create", "--file", file.toString());

    assertThat(created.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(created.err())
        .contains(file + " has 5 bad line(s); no job was created:")
        .contains(file + ":2: priority must be from 0 to 100, was 500")
        .contains(file + ":4: 'exclusive' is not a field of a job; its fields: type, payload,")
        .contains(file + ":5: is not JSON")
        .contains(file + ":6: 'tomorrow' is neither an ISO-8601 instant")
        .contains(file + ":7: type is required");
    assertThat(jobs("stats").out()).isEqualTo("no unfinished job" + System.lineSeparator());
  }

  @Test
  void fileAndTheOptionsOfOneJobDoNotMix() throws Exception {
    Path file =
        Files.write(work.resolve("jobs.jsonl"), List.of("{\"type\": \"a\", \"payload\": 1}"));

    CliRun mixed = jobs("create", "--file", file.toString(), "--type", "send");

    assertThat(mixed.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(mixed.err()).contains("--file takes each job's fields from its line");
    assertThat(jobs("create").err())
        .contains("--type and --payload are required, or --file with one job a line");
    assertThat(jobs("create", "--file", work.resolve("absent.jsonl").toString()).err())
        .contains("absent.jsonl: no such file");
  }

  @Tag("crash") // starts a Sluice process: not in the fast suite
  @Test
  void jobsAreReadFromStandardInputByTheSluiceProcess() throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append("{\"type\": \"send\", \"payload\": \"INV-").append(i).append("\"}\n");
    }
    Path input = Files.writeString(work.resolve("stdin.jsonl"), lines);

    try (SluiceProcess sluice =
        SluiceProcess.start(work, input, "jobs", "create", config.toString(), "--file", "-")) {
      assertThat(sluice.awaitExit(60)).as("%s", sluice.log()).isZero();
      assertThat(sluice.log())
          .contains("created 200 job(s) from stdin in one transaction: ids 1 to 200");
    }
    assertThat(jobs("stats").out()).containsPattern("\\nsend +200 ");
  }
}
