package io.sluice.jobs;

import static io.sluice.jobs.NodeProcesses.number;
import static io.sluice.jobs.NodeProcesses.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.Storage;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node frozen (SIGSTOP) past its lease with jobs claimed and not started, and woken (SIGCONT)
 * after the other node took them over and finished them, starts none of them; its handlers running
 * at the freeze learn from their context that they lost their job. Two node processes on one
 * PostgreSQL, whose handlers record each side effect (not only each completion): no job's side
 * effect happens twice, except for a job whose handler started on the frozen node before the freeze
 * (it finished just before it, its completion not written yet, or it made its side effect between
 * asking and being frozen).
 */
@Tag("cluster")
class AFrozenNodeStartsNoJobItLostTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int JOBS = 1_200;
  private static final String NOW_MILLIS = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint";
  private static final List<String> NAMES = List.of("node-1", "node-2");

  @TempDir Path logs;

  private NodeProcesses processes;

  @BeforeEach
  void createTables() throws SQLException {
    processes = new NodeProcesses(logs);
    DB.dropTables();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String table : List.of("cluster_runs", "cluster_starts", "cluster_lost")) {
        s.execute("DROP TABLE IF EXISTS " + table);
        s.execute(
            "CREATE TABLE "
                + table
                + " (job_id BIGINT NOT NULL, node TEXT NOT NULL,"
                + " at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())");
      }
    }
  }

  @AfterEach
  void stopNodes() throws Exception {
    processes.stopAll();
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null);
  }

  /** The last number of held jobs node {@code node} printed, or -1 before it printed one. */
  private long lastHeld(String node) {
    String[] lines = processes.output(node).split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (lines[i].startsWith("held " + node + " ")) {
        return Long.parseLong(lines[i].substring(("held " + node + " ").length()).trim());
      }
    }
    return -1;
  }

  @Test
  void aNodeFrozenPastItsLeaseStartsNoneOfTheJobsItHadClaimedWhenItWakes() throws Exception {
    Process frozen = processes.start(DB.url(), "node-1", "100", "guarded");
    processes.start(DB.url(), "node-2", "100", "guarded");
    await()
        .atMost(Duration.ofMinutes(1))
        .failFast("a node process died", () -> !frozen.isAlive())
        .until(() -> processes.ready(NAMES));
    try (Storage storage = JobTestStorages.postgres(DB, Clock.systemUTC())) {
      JobStore jobs = JobTestStorages.jobs(storage);
      jobs.createAll(IntStream.range(0, JOBS).mapToObj(i -> NewJob.of("work", i)).toList());
    }
    try (Connection c = connect()) {
      // node-1 runs 16 jobs and holds 16 more for its slots: it freezes with both.
      await()
          .atMost(Duration.ofMinutes(1))
          .until(
              () ->
                  number(c, "SELECT COUNT(*) FROM cluster_starts WHERE node = 'node-1'") >= 40
                      && lastHeld("node-1") >= 24);
      signal(frozen, "STOP");
      long frozenAt = number(c, "SELECT " + NOW_MILLIS);
      long thawedAt;
      try {
        // Its lease lapses in the database, and node-2 takes its jobs back and finishes them all.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    number(
                            c,
                            "SELECT COUNT(*) FROM sluice_job_node WHERE node = 'node-1'"
                                + " AND lease_expires < "
                                + NOW_MILLIS)
                        == 1);
        await()
            .atMost(Duration.ofMinutes(1))
            .until(() -> number(c, "SELECT COUNT(*) FROM sluice_job") == 0);
      } finally {
        signal(frozen, "CONT");
        thawedAt = number(c, "SELECT " + NOW_MILLIS);
      }
      // Awake, node-1 ends or drops what it held; nothing is left to claim.
      await().atMost(Duration.ofSeconds(30)).until(() -> lastHeld("node-1") == 0);

      String startedBeforeTheFreeze =
          "EXISTS (SELECT 1 FROM cluster_starts s WHERE s.job_id = r.job_id AND s.node = 'node-1'"
              + " AND EXTRACT(EPOCH FROM s.at) * 1000 < "
              + frozenAt
              + ")";
      long twice =
          number(
              c,
              "SELECT COUNT(*) FROM (SELECT job_id FROM cluster_runs GROUP BY job_id"
                  + " HAVING COUNT(*) > 1) r");
      long twiceUnexcused =
          number(
              c,
              "SELECT COUNT(*) FROM (SELECT job_id FROM cluster_runs GROUP BY job_id"
                  + " HAVING COUNT(*) > 1) r WHERE NOT "
                  + startedBeforeTheFreeze);
      long startedAwake =
          number(
              c,
              "SELECT COUNT(*) FROM cluster_starts WHERE node = 'node-1'"
                  + " AND EXTRACT(EPOCH FROM at) * 1000 > "
                  + thawedAt);
      long toldLost = number(c, "SELECT COUNT(*) FROM cluster_lost WHERE node = 'node-1'");
      System.out.printf(
          "node-1 frozen %d ms; jobs whose side effect happened twice: %d (all started before the"
              + " freeze: %s); node-1 started %d job(s) after waking; %d running handler(s) were"
              + " told they lost their job%n",
          thawedAt - frozenAt, twice, twiceUnexcused == 0, startedAwake, toldLost);
      assertThat(number(c, "SELECT COUNT(DISTINCT job_id) FROM cluster_runs"))
          .as("jobs whose side effect happened")
          .isEqualTo(JOBS);
      assertThat(twiceUnexcused)
          .as("jobs whose side effect happened twice, the handler not started before the freeze")
          .isZero();
      assertThat(startedAwake).as("jobs node-1 started after it woke").isZero();
      assertThat(toldLost)
          .as("handlers running at the freeze told they lost their job")
          .isPositive();
      assertThat(frozen.isAlive()).as("the frozen node lives on").isTrue();
    } catch (AssertionError | RuntimeException e) {
      throw processes.withOutputs(e, NAMES);
    }
  }
}
