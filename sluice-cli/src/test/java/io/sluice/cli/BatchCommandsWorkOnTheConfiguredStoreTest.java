package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sluice batch commands in-process, on the embedded SQLite store of a configuration file. */
class BatchCommandsWorkOnTheConfiguredStoreTest {

  @TempDir Path work;

  private String example;

  @BeforeEach
  void copyTheExample() throws Exception {
    Files.createDirectories(work.resolve("batch"));
    Files.copy(Path.of("../examples/batch-orders.yaml"), work.resolve("batch-orders.yaml"));
    Files.copy(Path.of("../examples/batch/orders.csv"), work.resolve("batch/orders.csv"));
    example = work.resolve("batch-orders.yaml").toString();
  }

  private String config(String name, String yaml) throws Exception {
    Path file = work.resolve(name);
    Files.writeString(file, yaml);
    return file.toString();
  }

  private static CliRun ok(CliRun run) {
    assertThat(run.exitCode()).as("exit code; out: %s; err: %s", run.out(), run.err()).isZero();
    return run;
  }

  @Test
  void runPrintsEachStepsCountsAndTheFailedRecordsWithTheirLineNumbers() throws Exception {
    String out = ok(CliRun.of("batch", "run", example, "--progress", "none")).out();

    assertThat(out)
        .contains("Batch job import-orders: instance 1 starts (input " + work.resolve("batch"))
        .contains("Batch job import-orders, instance 1: COMPLETED")
        .contains("7 loaded, 7 processed, 5 successful, 2 failed; this run: 7 records in ")
        .contains(
            String.join(
                System.lineSeparator(),
                "  STEP      PROCESSED  FAILED  SKIPPED",
                "  validate  6          1       1",
                "  load      4          0       3",
                "  report    2          0       5",
                "  failed records (all 2):",
                "    line 7, at input: line 7 has 3 field(s), the header names 4",
                "    line 6, at validate: ExpressionException: "));
    // The euro orders, in groups of two whichever blocks finished first.
    List<String> groups = new ArrayList<>();
    try (Stream<Path> files = Files.list(work.resolve("out"))) {
      for (Path file : files.toList()) {
        groups.add(Files.readString(file));
      }
    }
    assertThat(groups).hasSize(2).allMatch(g -> g.startsWith("[") && g.endsWith("]"));
    assertThat(String.join("", groups))
        .contains("1;ACME;12.50", "3;Initech;7.25", "4;Umbrella, Inc.;100.00", "7;Wayne;42.00")
        .doesNotContain("Globex", "Hooli", "Stark");
  }

  @Test
  void listShowsEachInstanceNewestFirstAndARunOfAFinishedJobStartsAnother() throws Exception {
    ok(CliRun.of("batch", "run", example, "--progress", "none"));
    assertThat(ok(CliRun.of("batch", "run", example, "--progress", "none")).out())
        .contains("instance 2 starts");

    List<String> lines = ok(CliRun.of("batch", "list", example)).out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0))
        .startsWith("ID  JOB            STATE      LOADED  PROCESSED  FAILED  STARTED");
    assertThat(lines.get(1))
        .startsWith("2   import-orders  COMPLETED  7       7          2       20")
        .endsWith("COMPLETED: loaded 7, processed 7, successful 5, failed 2");
    assertThat(lines.get(2)).startsWith("1   import-orders  COMPLETED");
    assertThat(lines.get(3)).startsWith("2 instance(s) in sqlite " + work.resolve("data"));
    assertThat(ok(CliRun.of("batch", "list", example, "--job", "other")).out())
        .startsWith("0 instance(s)");

    JsonNode json = json(ok(CliRun.of("batch", "list", example, "--output", "json")).out());
    assertThat(json.get("count").asInt()).isEqualTo(2);
    assertThat(json.get("store").asText()).startsWith("sqlite " + work.resolve("data"));
    JsonNode newest = json.get("instances").get(0);
    assertThat(newest.get("id").asLong()).isEqualTo(2);
    assertThat(newest.get("job").asText()).isEqualTo("import-orders");
    assertThat(newest.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(newest.get("loaded").asLong()).isEqualTo(7);
    assertThat(newest.get("inputDone").asBoolean()).isTrue();
    assertThat(newest.get("successful").asLong()).isEqualTo(5);
    assertThat(newest.get("failed").asLong()).isEqualTo(2);
    assertThat(newest.get("running").asBoolean()).isFalse();
    assertThat(newest.get("result").asText())
        .isEqualTo("COMPLETED: loaded 7, processed 7, successful 5, failed 2");
  }

  private static JsonNode json(String out) throws Exception {
    assertThat(out.lines().count()).as(out).isEqualTo(1);
    return new ObjectMapper().readTree(out);
  }

  @Test
  void aFailedJobExitsWithOneAndSaysWhy() throws Exception {
    String strict =
        config(
            "strict.yaml",
            """
            batch:
              - name: strict
                input: { csv: batch/orders.csv }
                steps:
                  - name: validate
                    processors:
                      - expression: { expression: "new('java.math.BigDecimal', payload.amount)" }
            """);

    CliRun run = CliRun.of("batch", "run", strict, "--progress", "none");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.out())
        .contains("Batch job strict, instance 1: FAILED")
        .contains("more than maxFailedRecords 0");
    assertThat(CliRun.of("batch", "resume", strict, "1").err())
        .contains("is FAILED: it ended and cannot be resumed");
  }

  @Test
  void theOnCompleteProcessorsGetTheResult() throws Exception {
    String reported =
        config(
            "reported.yaml",
            """
            batch:
              - name: numbers
                input: { generator: { count: 1000 } }
                steps: [ { name: copy, processors: [ { expression: { expression: "payload" } } ] } ]
                onComplete:
                  - file-write:
                      directory: report
                      fileName: result.txt
                  - set-payload: { value: "#[payload.state() + ' ' + payload.processed()]" }
                  - file-write: { directory: report, fileName: summary.txt }
            """);

    ok(CliRun.of("batch", "run", reported, "--progress", "none"));

    assertThat(work.resolve("report/summary.txt")).hasContent("COMPLETED 1000");
    assertThat(work.resolve("report/result.txt")).content().startsWith("BatchResult[instance=1");
  }

  @Test
  void parametersReachEveryRecordAndTheOnCompleteProcessors() throws Exception {
    String daily =
        config(
            "daily.yaml",
            """
            batch:
              - name: daily
                input: { generator: { count: 100 } }
                steps:
                  - name: only-today
                    acceptExpression: "vars.day == '2026-11-27'"
                    processors: [ { expression: { expression: "payload" } } ]
                onComplete:
                  - set-payload: { value: "#[vars.day + ' ' + vars.region + ' ' + payload.processed()]" }
                  - file-write: { directory: report, fileName: "#[vars.day].txt" }
            """);

    ok(CliRun.of("batch", "run", daily, "-p", "day=2026-11-27", "--param", "region=eu=west"));

    assertThat(work.resolve("report/2026-11-27.txt")).hasContent("2026-11-27 eu=west 100");
    assertThat(ok(CliRun.of("batch", "run", daily, "-p", "day=2026-11-28", "-p", "region=x")).out())
        .as("another day's instance, whose records the step does not take")
        .contains("instance 2 starts")
        .contains("  only-today  0          0       100");

    CliRun malformed = CliRun.of("batch", "run", daily, "-p", "2026-11-27");
    assertThat(malformed.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(malformed.err()).contains("--param '2026-11-27': a parameter is NAME=VALUE");
    CliRun twice = CliRun.of("batch", "run", daily, "-p", "day=1", "-p", "day=2");
    assertThat(twice.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(twice.err()).contains("--param day is given twice");
  }

  @Test
  void theJobIsChosenByNameWhenTheFileHasSeveral() throws Exception {
    String two =
        config(
            "two.yaml",
            """
            batch:
              - name: first
                input: { generator: { count: 10 } }
                steps: [ { name: copy } ]
              - name: second
                input: { generator: { count: 20 } }
                steps: [ { name: copy } ]
            """);

    CliRun unnamed = CliRun.of("batch", "run", two);
    assertThat(unnamed.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(unnamed.err())
        .contains("--job is needed: the configuration declares 2 batch jobs: first, second");
    CliRun unknown = CliRun.of("batch", "run", two, "--job", "third");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(unknown.err()).contains("--job third: the configuration declares no such");

    assertThat(ok(CliRun.of("batch", "run", two, "--job", "second", "--progress", "lines")).out())
        .contains("Batch job second, instance 1: COMPLETED")
        .contains("20 loaded");
  }

  @Test
  void stopAndResumeOfAnInstanceThatEndedOrDoesNotExistSayWhy() {
    ok(CliRun.of("batch", "run", example, "--progress", "none"));

    CliRun ended = CliRun.of("batch", "stop", example, "1");
    assertThat(ended.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(ended.err())
        .contains("instance 1 (import-orders) has ended (COMPLETED); there is nothing to stop");
    CliRun absent = CliRun.of("batch", "stop", example, "9");
    assertThat(absent.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(absent.err()).contains("no batch instance has id 9 in sqlite");
    CliRun resumeAbsent = CliRun.of("batch", "resume", example, "9");
    assertThat(resumeAbsent.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(resumeAbsent.err()).contains("no batch instance has id 9");
  }

  @Test
  void runRefusesAFileWithOnlyBatchJobsAndValidateNamesThem() {
    CliRun run = CliRun.of("run", example);
    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(run.err())
        .contains("nothing for sluice run to run")
        .contains("sluice batch run " + example + " --job import-orders");

    assertThat(ok(CliRun.of("validate", example)).out())
        .contains("is valid: 0 flow(s)")
        .contains("batch job import-orders: input " + work.resolve("batch/orders.csv"))
        .contains("steps validate, load, report");
  }

  @Test
  void failuresListsTheFailedLinesOfAnInstanceWithTheirStepAndError() throws Exception {
    ok(CliRun.of("batch", "run", example, "--progress", "none"));

    List<String> lines = ok(CliRun.of("batch", "failures", example, "1")).out().lines().toList();

    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).startsWith("POSITION  STEP      ERROR");
    assertThat(lines.get(1))
        .startsWith("6         validate  ExpressionException: ")
        .contains("{id=5, customer=Hooli, amount=twelve, currency=EUR}");
    assertThat(lines.get(2))
        .startsWith("7         input     line 7 has 3 field(s), the header names 4  ")
        .contains(" 6,Stark,5.10 ");
    assertThat(lines.get(3))
        .isEqualTo("2 failed record(s) of instance 1 (import-orders), which counts 2 failed");
    assertThat(ok(CliRun.of("batch", "failures", example, "1", "--max", "1")).out())
        .contains(
            "1 failed record(s) of instance 1 (import-orders), which counts 2 failed;"
                + " next: --from 7");

    JsonNode json =
        json(ok(CliRun.of("batch", "failures", example, "1", "--from", "7", "-o", "json")).out());
    assertThat(json.get("count").asInt()).isEqualTo(1);
    assertThat(json.get("failed").asLong()).isEqualTo(2);
    assertThat(json.get("next").isNull()).isTrue();
    JsonNode line7 = json.get("failures").get(0);
    assertThat(line7.get("position").asLong()).isEqualTo(7);
    assertThat(line7.get("step").asText()).isEqualTo("input");
    assertThat(line7.get("error").asText()).isEqualTo("line 7 has 3 field(s), the header names 4");
    assertThat(line7.get("payload").asText()).isEqualTo("6,Stark,5.10");
    assertThat(line7.get("time").asText()).startsWith("20");

    CliRun absent = CliRun.of("batch", "failures", example, "9");
    assertThat(absent.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(absent.err()).contains("no batch instance has id 9");
    CliRun none = CliRun.of("batch", "failures", example, "1", "--max", "0");
    none.assertRefused("--max must be at least 1, was 0");
  }

  @Test
  void everyBatchCommandHasHelp() {
    for (String command : new String[] {"run", "list", "failures", "resume", "stop"}) {
      CliRun run = CliRun.of("batch", command, "--help");
      assertThat(run.exitCode()).as(command).isZero();
      assertThat(run.out()).as(command).contains("Usage: sluice batch " + command + " ");
    }
    assertThat(CliRun.of("batch").out()).contains("run").contains("list").contains("stop");
  }
}
