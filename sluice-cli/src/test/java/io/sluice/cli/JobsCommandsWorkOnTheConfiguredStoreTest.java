package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sluice jobs commands in-process, on the embedded SQLite store of a configuration file. */
class JobsCommandsWorkOnTheConfiguredStoreTest {

  @TempDir Path work;

  private String config;

  @BeforeEach
  void writeTheConfiguration() throws Exception {
    Path file = work.resolve("app.yaml");
    Files.writeString(
        file,
        """
        sluice:
          store: { dataDir: data }
          jobs:
            priorityAging: 1s
            handlers:
              send: { flow: send }
        flows:
          - name: send
        """);
    config = file.toString();
  }

  private CliRun jobs(String... args) {
    String[] line = new String[args.length + 2];
    line[0] = "jobs";
    line[1] = args[0];
    line[2] = config;
    System.arraycopy(args, 1, line, 3, args.length - 1);
    return CliRun.of(line);
  }

  private static CliRun ok(CliRun run) {
    assertThat(run.exitCode()).as("exit code; err: %s", run.err()).isZero();
    return run;
  }

  @Test
  void createdJobsAreListedAsAnAlignedTableAPageAtATime() {
    assertThat(ok(jobs("create", "--type", "send", "--payload", "INV-1")).out())
        .startsWith("created job 1 (send): due 20");
    assertThat(
            ok(jobs(
                    "create",
                    "--type",
                    "report",
                    "--payload",
                    "r",
                    "--due",
                    "+1h",
                    "--priority",
                    "5"))
                .out())
        .startsWith("created job 2 (report): due 20");

    List<String> lines = ok(jobs("list")).out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).startsWith("ID  TYPE    STATE    PRIORITY  ATTEMPTS  RETRIES  DETAIL");
    assertThat(lines.get(1)).startsWith("1   send    waiting  0         0         3        due 20");
    assertThat(lines.get(2)).startsWith("2   report  waiting  5         0         3        due 20");
    assertThat(lines.get(3)).isEqualTo("2 job(s)");

    assertThat(ok(jobs("list", "--type", "report", "--state", "waiting")).out())
        .contains("report")
        .doesNotContain("send")
        .endsWith("1 job(s)" + System.lineSeparator());
    assertThat(ok(jobs("list", "--limit", "1")).out())
        .contains("1   send")
        .contains("more may follow: add --after 1 for the next page");
    assertThat(ok(jobs("list", "--limit", "1", "--after", "1")).out()).contains("2   report");
    assertThat(ok(jobs("list", "--state", "running")).out())
        .isEqualTo("0 job(s)" + System.lineSeparator());
  }

  @Test
  void showGivesEveryFieldOfOneJob() {
    ok(
        jobs(
            "create",
            "--type",
            "send",
            "--payload",
            "x",
            "--due",
            "2030-01-31T08:00:00Z",
            "--key",
            "inv-9"));

    assertThat(ok(jobs("show", "1")).out())
        .contains("id:            1")
        .contains("type:          send")
        .contains("state:         waiting")
        .contains("due:           2030-01-31T08:00:00Z")
        .contains("retries left:  3")
        .contains("unique key:    inv-9")
        .contains("last error:    -");
    assertThat(ok(jobs("create", "--type", "send", "--payload", "y", "--key", "inv-9")).out())
        .as("a second job with the key is not created")
        .startsWith("job 1 (send) holds key 'inv-9': due 2030-01-31T08:00:00Z");
  }

  @Test
  void statsCountEachTypeAndTheTotal() {
    assertThat(ok(jobs("stats")).out()).isEqualTo("no unfinished job" + System.lineSeparator());
    ok(jobs("create", "--type", "send", "--payload", "a"));
    ok(jobs("create", "--type", "send", "--payload", "b", "--due", "+1h"));
    ok(jobs("create", "--type", "report", "--payload", "c", "--due", "2020-01-01T00:00:00Z"));
    ConfiguredStores.incident(Path.of(config), "send", "boom");

    List<String> lines = ok(jobs("stats")).out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0))
        .isEqualTo("TYPE    WAITING  DUE NOW  RUNNING  INCIDENTS  OLDEST DUE WAITED");
    assertThat(lines.get(1))
        .matches("report  1        1        0        0          [0-9]+d [0-9]+h");
    assertThat(lines.get(2)).matches("send    2        1        0        1          [0-9]+s");
    assertThat(lines.get(3))
        .matches("total   3        2        0        1          [0-9]+d [0-9]+h");
  }

  @Test
  void incidentsAreListedWithTheirErrorAndRetriedWithFreshRetries() {
    long incident =
        ConfiguredStores.incident(
            Path.of(config), "send", "SMTP 550: mailbox full\n\tat Mailer.send");

    List<String> lines = ok(jobs("incidents")).out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("ID  TYPE  ATTEMPTS  CREATED +ERROR");
    assertThat(lines.get(1))
        .matches(incident + "   send  1         20[0-9-]+T[0-9:]+Z  SMTP 550: mailbox full");
    assertThat(lines.get(2)).isEqualTo("1 incident(s)");
    assertThat(ok(jobs("show", String.valueOf(incident))).out())
        .contains("state:         incident")
        .contains("last error:    SMTP 550: mailbox full\n\tat Mailer.send");

    assertThat(ok(jobs("retry", String.valueOf(incident), "--retries", "5")).out())
        .isEqualTo(
            "job "
                + incident
                + " (send) waits again, due now, with 5 retries"
                + System.lineSeparator());
    assertThat(ok(jobs("show", String.valueOf(incident))).out())
        .contains("state:         waiting")
        .contains("retries left:  5");
    assertThat(ok(jobs("incidents")).out()).isEqualTo("0 incident(s)" + System.lineSeparator());
  }

  @Test
  void everyListingGivesJsonForScripts() throws Exception {
    ok(jobs("create", "--type", "send", "--payload", "a", "--key", "inv-1"));
    ok(jobs("create", "--type", "send", "--payload", "b", "--due", "2030-01-31T08:00:00Z"));
    long incident =
        ConfiguredStores.incident(Path.of(config), "report", "SMTP 550: \"full\"\n\tat Mailer");

    JsonNode list = json(ok(jobs("list", "--output", "json", "--limit", "2")).out());
    assertThat(list.get("count").asInt()).isEqualTo(2);
    assertThat(list.get("nextAfter").asLong())
        .as("a full page says where the next starts")
        .isEqualTo(2);
    JsonNode first = list.get("jobs").get(0);
    assertThat(first.get("id").asLong()).isEqualTo(1);
    assertThat(first.get("type").asText()).isEqualTo("send");
    assertThat(first.get("state").asText()).isEqualTo("waiting");
    assertThat(first.get("priority").isInt()).isTrue();
    assertThat(first.get("retriesLeft").asInt()).isEqualTo(3);
    assertThat(first.get("uniqueKey").asText()).isEqualTo("inv-1");
    assertThat(first.get("owner").isNull()).isTrue();
    assertThat(Instant.parse(first.get("createdAt").asText()))
        .isBefore(Instant.now().plusSeconds(1));
    assertThat(list.get("jobs").get(1).get("dueAt").asText()).isEqualTo("2030-01-31T08:00:00Z");
    assertThat(json(ok(jobs("list", "-o", "json", "--after", "2")).out()).get("nextAfter").isNull())
        .isTrue();

    JsonNode incidents = json(ok(jobs("incidents", "--output", "json")).out());
    assertThat(incidents.get("incidents").get(0).get("lastError").asText())
        .as("whole, quotes and line ends escaped, not cut to a first line")
        .isEqualTo("SMTP 550: \"full\"\n\tat Mailer");

    JsonNode shown = json(ok(jobs("show", String.valueOf(incident), "--output", "json")).out());
    assertThat(shown.get("state").asText()).isEqualTo("incident");
    assertThat(shown.get("type").asText()).isEqualTo("report");

    JsonNode stats = json(ok(jobs("stats", "--output", "json")).out());
    assertThat(stats.get("types")).hasSize(2);
    JsonNode send = stats.get("types").get(1);
    assertThat(send.get("type").asText()).isEqualTo("send");
    assertThat(send.get("waiting").asLong()).isEqualTo(2);
    assertThat(send.get("due").asLong()).isEqualTo(1);
    assertThat(send.get("oldestDueWaitedSeconds").asLong()).isNotNegative();

    CliRun bad = jobs("list", "--output", "yaml");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(bad.err()).contains("--output").contains("text, json");
  }

  private static JsonNode json(String out) throws Exception {
    assertThat(out.lines().count()).as("one JSON document on one line: %s", out).isEqualTo(1);
    return new ObjectMapper().readTree(out);
  }

  @Test
  void anUnknownIdOrAJobThatIsNotAnIncidentFailsWithExitOneAndSaysWhy() {
    ok(jobs("create", "--type", "send", "--payload", "a"));

    CliRun unknown = jobs("show", "42");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(unknown.err()).contains("no unfinished job has id 42").contains("sluice jobs list");

    CliRun notAnIncident = jobs("retry", "1", "42");
    assertThat(notAnIncident.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(notAnIncident.err())
        .contains("job 1 (send) is not an incident, it is waiting; only incidents are retried")
        .contains("no unfinished job has id 42");
    assertThat(ok(jobs("show", "1")).out()).contains("retries left:  3");
  }

  @Test
  void badArgumentsAreRefusedWithExitTwoNamingTheRule() throws Exception {
    CliRun badType = jobs("create", "--type", "send mail", "--payload", "a");
    assertThat(badType.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badType.err()).contains("job type 'send mail' must be 1 to 200 letters");

    CliRun badDue = jobs("create", "--type", "send", "--payload", "a", "--due", "soon");
    assertThat(badDue.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badDue.err()).contains("'soon' is neither an ISO-8601 instant");

    CliRun badPriority = jobs("create", "--type", "send", "--payload", "a", "--priority", "101");
    assertThat(badPriority.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badPriority.err()).contains("priority must be from 0 to 100, was 101");

    CliRun badLimit = jobs("list", "--limit", "0");
    assertThat(badLimit.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badLimit.err()).contains("--limit must be at least 1, was 0");

    Path memory = work.resolve("memory.yaml");
    Files.writeString(memory, "sluice: { store: { type: memory } }\nflows: [ { name: a } ]\n");
    CliRun noStore = CliRun.of("jobs", "stats", memory.toString());
    assertThat(noStore.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(noStore.err()).contains("sluice.store.type").contains("keeps no jobs");
  }

  @Test
  void historyListsTheEndedJobsNewestFirstNarrowedAndPaged() throws Exception {
    Path path = Path.of(config);
    long invoice = ConfiguredStores.completed(path, "send", "Invoice INV-42");
    long report = ConfiguredStores.completed(path, "report", "monthly");
    long failed = ConfiguredStores.incident(path, "send", "SMTP 550: mailbox full");

    List<String> lines = ok(jobs("history")).out().lines().toList();
    assertThat(lines.get(0))
        .startsWith("ENTRY  JOB  TYPE    STATE      ATTEMPTS  NODE       FINISHED")
        .endsWith("ERROR");
    assertThat(lines.get(1))
        .matches(
            "3      "
                + failed
                + "    send    failed     1         test-node  20.*Z  SMTP 550: mailbox full");
    assertThat(lines.get(2)).startsWith("2      " + report + "    report  completed");
    assertThat(lines.get(3)).startsWith("1      " + invoice + "    send    completed");
    assertThat(lines.get(4)).isEqualTo("3 finished job(s)");

    assertThat(
            ok(jobs("history", "--type", "send", "--state", "completed", "--search", "inv-42"))
                .out())
        .containsPattern("1 +" + invoice + " +send +completed")
        .endsWith("1 finished job(s)" + System.lineSeparator());
    assertThat(ok(jobs("history", "--search", "MAILBOX")).out()).contains("SMTP 550");
    assertThat(ok(jobs("history", "--max", "2")).out())
        .contains("more may follow: add --before 2 for the next page");
    assertThat(ok(jobs("history", "--max", "2", "--before", "2")).out())
        .containsPattern("1 +" + invoice + " +send +completed")
        .doesNotContain("report")
        .endsWith("1 finished job(s)" + System.lineSeparator());

    JsonNode history = json(ok(jobs("history", "--type", "send", "--output", "json")).out());
    assertThat(history.get("count").asInt()).isEqualTo(2);
    assertThat(history.get("next").isNull()).isTrue();
    JsonNode completed = history.get("history").get(1);
    assertThat(completed.get("jobId").asLong()).isEqualTo(invoice);
    assertThat(completed.get("state").asText()).isEqualTo("completed");
    assertThat(completed.get("payload").asText()).isEqualTo("Invoice INV-42");
    assertThat(completed.get("node").asText()).isEqualTo("test-node");
    assertThat(Instant.parse(completed.get("finishedAt").asText()))
        .isBeforeOrEqualTo(Instant.now());

    CliRun badMax = jobs("history", "--max", "1001");
    assertThat(badMax.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badMax.err()).contains("--max must be from 1 to 1000, was 1001");
    CliRun badState = jobs("history", "--state", "lost");
    assertThat(badState.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(badState.err()).contains("completed, failed");
  }

  @Test
  void retryByTypeRetriesEveryIncidentOfTheTypeAtOnce() {
    Path path = Path.of(config);
    long first = ConfiguredStores.incident(path, "send", "down");
    long second = ConfiguredStores.incident(path, "send", "down");
    long other = ConfiguredStores.incident(path, "report", "down");

    assertThat(ok(jobs("retry", "--type", "send", "--retries", "4")).out())
        .isEqualTo(
            "2 incident(s) of type 'send' wait again, due now, with 4 retries"
                + System.lineSeparator());
    assertThat(ok(jobs("show", String.valueOf(first))).out()).contains("state:         waiting");
    assertThat(ok(jobs("show", String.valueOf(second))).out()).contains("retries left:  4");
    assertThat(ok(jobs("show", String.valueOf(other))).out()).contains("state:         incident");

    CliRun none = jobs("retry", "--type", "send");
    assertThat(none.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(none.err()).contains("no incident of type 'send'");
    CliRun both = jobs("retry", String.valueOf(other), "--type", "report");
    assertThat(both.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(both.err()).contains("one of the two");
    CliRun neither = jobs("retry");
    assertThat(neither.exitCode()).isEqualTo(ExitCodes.INVALID);
  }

  @Test
  void everyJobsCommandHasHelp() {
    for (String command :
        new String[] {"list", "show", "incidents", "retry", "stats", "create", "history"}) {
      CliRun run = CliRun.of("jobs", command, "--help");
      assertThat(run.exitCode()).as(command).isZero();
      assertThat(run.out()).as(command).contains("Usage: sluice jobs " + command + " ");
    }
    assertThat(CliRun.of("jobs").out()).contains("list").contains("incidents").contains("retry");
  }
}
