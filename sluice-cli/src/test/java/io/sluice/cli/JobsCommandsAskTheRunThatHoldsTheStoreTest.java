package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice jobs} on an embedded store that a real {@code sluice run} holds: without a
 * management port the command fails naming both ways it tried; with one it asks the API (found
 * through the discovery file beside the store, deleted on a clean stop) and prints what it prints
 * on the store itself, line for line, the history too; a retry by id and one of a whole type run
 * the jobs.
 */
@Tag("crash") // starts Sluice processes: not in the fast suite
class JobsCommandsAskTheRunThatHoldsTheStoreTest {

  private static final String TOKEN = "0123456789abcdef-jobs-token";
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path work;

  private String config() {
    return work.resolve("app.yaml").toString();
  }

  private List<CliRun> look(String incident, String... more) {
    return List.of(
        CliRun.of(with(more, "jobs", "list", config())),
        CliRun.of(with(more, "jobs", "incidents", config())),
        CliRun.of(with(more, "jobs", "show", config(), incident)),
        CliRun.of(with(more, "jobs", "stats", config())),
        CliRun.of(with(more, "jobs", "list", config(), "--output", "json")),
        CliRun.of(with(more, "jobs", "history", config(), "--search", "fails on purpose")),
        CliRun.of(
            with(more, "jobs", "history", config(), "--type", "send-order", "--output", "json")));
  }

  private void create(String... options) {
    CliRun created = CliRun.of(with(options, "jobs", "create", config()));
    assertThat(created.exitCode()).as(created.err()).isZero();
  }

  private static String[] with(String[] more, String... args) {
    String[] all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  @Test
  void theJobsCommandsAskTheHoldingRunThroughItsApiAndPrintTheSame() throws Exception {
    Files.writeString(work.resolve("app.yaml"), FailsTheFirstRunOfEachPayload.SEND_ORDER_JOBS);
    create("--type", "send-order", "--payload", "o-1", "--retries", "0");
    create("--type", "report", "--payload", "r", "--due", "2099-01-01T00:00:00Z");
    create("--type", "send-order", "--payload", "o-2", "--retries", "0");
    Path discovery = work.resolve("data").resolve("sluice.db.management");

    try (SluiceProcess run = SluiceProcess.start(work, "run", "app.yaml")) {
      await().atMost(WAIT).until(() -> run.log().split("is an incident after", -1).length == 3);
      CliRun refused = CliRun.of("jobs", "list", config());
      assertThat(refused.exitCode()).isNotZero();
      assertThat(refused.err())
          .contains("is open in another process")
          .contains("Nor can its management API be asked")
          .contains("--management-port");
      run.terminate();
      assertThat(run.awaitExit(60)).as(run.log()).isZero();
    }
    String incident = "1";
    List<CliRun> direct = look(incident);
    assertThat(direct).allSatisfy(r -> assertThat(r.exitCode()).as(r.err()).isZero());
    assertThat(direct.get(1).out()).contains("fails on purpose");
    assertThat(direct.get(5).out()).contains("2 finished job(s)");

    Path tokenFile = Files.writeString(work.resolve("token"), TOKEN);
    try (SluiceProcess run =
        SluiceProcess.start(
            work,
            Map.of(ManagementAccess.TOKEN_VARIABLE, TOKEN),
            "run",
            "app.yaml",
            "--management-port",
            "0")) {
      await().atMost(WAIT).until(() -> Files.exists(discovery) || !run.isAlive());
      assertThat(Files.readString(discovery))
          .contains("url=http://127.0.0.1:")
          .contains("pid=" + run.pid());

      CliRun withoutToken = CliRun.of("jobs", "list", config());
      assertThat(withoutToken.exitCode()).isNotZero();
      assertThat(withoutToken.err())
          .contains("wants its token")
          .contains("--management-token-file");

      List<CliRun> remote = look(incident, "--management-token-file", tokenFile.toString());
      for (int i = 0; i < direct.size(); i++) {
        assertThat(remote.get(i).err()).isEmpty();
        assertThat(remote.get(i).exitCode()).isZero();
        assertThat(remote.get(i).out()).as("command %d", i).isEqualTo(direct.get(i).out());
      }

      CliRun retried =
          CliRun.of(
              "jobs", "retry", config(), incident, "--management-token-file", tokenFile.toString());
      assertThat(retried.exitCode()).as(retried.err()).isZero();
      // This process has not seen o-1: its first run fails, its retry runs.
      await().atMost(WAIT).until(() -> Files.exists(work.resolve("ran-o-1")));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  CliRun.of(
                              "jobs",
                              "show",
                              config(),
                              incident,
                              "--management-token-file",
                              tokenFile.toString())
                          .exitCode()
                      != 0);

      String[] typeRetry = {
        "jobs",
        "retry",
        config(),
        "--type",
        "send-order",
        "--management-token-file",
        tokenFile.toString()
      };
      CliRun retriedType = CliRun.of(typeRetry);
      assertThat(retriedType.exitCode()).as(retriedType.err()).isZero();
      assertThat(retriedType.out())
          .isEqualTo("1 incident(s) of type 'send-order' wait again, due now, with 3 retries\n");
      await().atMost(WAIT).until(() -> Files.exists(work.resolve("ran-o-2")));
      CliRun noneLeft = CliRun.of(typeRetry);
      assertThat(noneLeft.exitCode()).isEqualTo(ExitCodes.FAILED);
      assertThat(noneLeft.err()).contains("no incident of type 'send-order'");
      await()
          .atMost(WAIT)
          .alias("the history, read through the API, shows both retried jobs completed")
          .until(
              () ->
                  CliRun.of(
                          "jobs",
                          "history",
                          config(),
                          "--state",
                          "completed",
                          "--management-token-file",
                          tokenFile.toString())
                      .out(),
              out -> out.contains("2 finished job(s)"));
      run.terminate();
      assertThat(run.awaitExit(60)).as(run.log()).isZero();
    }
    assertThat(discovery).as("deleted on a clean stop").doesNotExist();
  }
}
