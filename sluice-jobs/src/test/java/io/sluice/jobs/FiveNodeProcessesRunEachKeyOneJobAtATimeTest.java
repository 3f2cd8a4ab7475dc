package io.sluice.jobs;

import static io.sluice.jobs.NodeProcesses.number;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exclusive keys across a cluster: five executor nodes, each a process of its own, on one
 * PostgreSQL, run jobs of 20 keys and jobs without a key while one node, in the middle of a run of
 * a keyed job, is killed with SIGKILL. Each run is recorded by its handler with its start and end
 * on the database's clock: no two runs of one key overlap (a run the kill cut short ends at the
 * kill), the jobs of a key finish in due order, every job runs, and runs of different keys do
 * overlap.
 */
@Tag("cluster")
class FiveNodeProcessesRunEachKeyOneJobAtATimeTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int KEYS = 20;
  private static final int PER_KEY = 25;
  private static final int UNKEYED = 300;

  @TempDir Path logs;

  private NodeProcesses processes;
  private final List<String> names =
      IntStream.rangeClosed(1, 5).mapToObj(i -> "node-" + i).toList();

  @AfterEach
  void stopNodes() throws Exception {
    processes.stopAll();
  }

  private static void createTable() throws SQLException {
    DB.dropTables();
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS cluster_keyed_runs");
      s.execute("DROP TABLE IF EXISTS cluster_kill");
      s.execute(
          "CREATE TABLE cluster_keyed_runs (run BIGSERIAL PRIMARY KEY, job_id BIGINT NOT NULL,"
              + " exclusive_key TEXT, seq INT NOT NULL, node TEXT NOT NULL,"
              + " started TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), ended TIMESTAMPTZ)");
    }
  }

  /** The keyed jobs: of key K{k}, sequence numbers 0, 1, 2... due in that order; then the rest. */
  private static void createJobs() {
    Instant now = Instant.now();
    List<NewJob> jobs = new ArrayList<>();
    for (int seq = 0; seq < PER_KEY; seq++) {
      for (int k = 0; k < KEYS; k++) {
        jobs.add(
            NewJob.of("work", seq)
                .withExclusiveKey("K" + k)
                .withDueAt(now.minusMillis(10L * (PER_KEY - seq))));
      }
    }
    for (int i = 0; i < UNKEYED; i++) {
      jobs.add(NewJob.of("work", i));
    }
    try (Storage storage = JobTestStorages.postgres(DB, Clock.systemUTC())) {
      JobStore store = JobTestStorages.jobs(storage);
      assertThat(store.createAll(jobs)).hasSize(jobs.size());
    }
  }

  @Test
  void noTwoJobsOfAKeyRunAtOnceThroughASigkillAndEachKeyRunsInDueOrder() throws Exception {
    createTable();
    processes = new NodeProcesses(logs);
    for (String node : names) {
      processes.start(DB.url(), node, "20", "keyed");
    }
    List<Process> nodes = processes.all();
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null)) {
      await()
          .atMost(Duration.ofMinutes(1))
          .failFast("a node process died", () -> nodes.stream().anyMatch(p -> !p.isAlive()))
          .until(() -> processes.ready(names));
      createJobs();
      // The victim: a node in the middle of a keyed run, once some keyed runs have finished.
      String[] victim = new String[1];
      await()
          .atMost(Duration.ofMinutes(1))
          .until(
              () -> {
                if (number(
                        c,
                        "SELECT COUNT(ended) FROM cluster_keyed_runs WHERE exclusive_key"
                            + " IS NOT NULL")
                    < 50) {
                  return false;
                }
                victim[0] =
                    text(
                        c,
                        "SELECT node FROM cluster_keyed_runs WHERE ended IS NULL AND exclusive_key"
                            + " IS NOT NULL GROUP BY node ORDER BY COUNT(*) DESC LIMIT 1");
                return victim[0] != null;
              });
      Process killed = nodes.get(names.indexOf(victim[0]));
      killed.destroyForcibly(); // SIGKILL
      assertThat(killed.waitFor(10, TimeUnit.SECONDS)).as("%s is dead", victim[0]).isTrue();
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE cluster_kill AS SELECT clock_timestamp() AS at"); // after it died
      }
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .failFast(
              "a node process died",
              () -> nodes.stream().anyMatch(p -> p != killed && !p.isAlive()))
          .until(() -> number(c, "SELECT COUNT(*) FROM sluice_job") == 0);

      assertThat(number(c, "SELECT COUNT(DISTINCT job_id) FROM cluster_keyed_runs"))
          .as("jobs run")
          .isEqualTo(KEYS * PER_KEY + UNKEYED);
      assertThat(
              number(
                  c,
                  "SELECT COUNT(*) FROM cluster_keyed_runs WHERE ended IS NULL AND node <> '"
                      + victim[0]
                      + "'"))
          .as("runs left unfinished by a node that lives")
          .isZero();
      // A run ends when its handler recorded its end, or at the kill for the victim's last ones.
      long overlaps =
          number(
              c,
              "SELECT COUNT(*) FROM (SELECT started, MAX(COALESCE(ended, (SELECT at FROM"
                  + " cluster_kill))) OVER (PARTITION BY exclusive_key ORDER BY started, run"
                  + " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_ended"
                  + " FROM cluster_keyed_runs WHERE exclusive_key IS NOT NULL) r"
                  + " WHERE started < before_ended");
      assertThat(overlaps).as("runs of one key that began before an earlier one ended").isZero();
      // The first finished run of each job: a job the victim ran, but whose completion it had not
      // written yet, runs again after the kill (at least once), with the ones after it.
      long outOfOrder =
          number(
              c,
              "SELECT COUNT(*) FROM (SELECT seq, LAG(seq) OVER (PARTITION BY exclusive_key"
                  + " ORDER BY started, run) AS previous FROM (SELECT DISTINCT ON (job_id) *"
                  + " FROM cluster_keyed_runs WHERE exclusive_key IS NOT NULL AND ended IS NOT"
                  + " NULL ORDER BY job_id, started) first_runs) r WHERE seq < previous");
      assertThat(outOfOrder).as("finished runs of a key out of due order").isZero();
      long acrossKeys =
          number(
              c,
              "SELECT COUNT(*) FROM cluster_keyed_runs a JOIN cluster_keyed_runs b"
                  + " ON a.exclusive_key < b.exclusive_key AND a.started < b.ended"
                  + " AND b.started < a.ended");
      assertThat(acrossKeys).as("runs of different keys at the same time").isPositive();
      long killedMidRun = number(c, "SELECT COUNT(*) FROM cluster_keyed_runs WHERE ended IS NULL");
      System.out.printf(
          "keyed cluster: %s killed; %d runs of %d jobs, %d cut short by the SIGKILL, %d pairs of"
              + " runs of different keys overlapping, runs per node %s%n",
          victim[0],
          number(c, "SELECT COUNT(*) FROM cluster_keyed_runs"),
          KEYS * PER_KEY + UNKEYED,
          killedMidRun,
          acrossKeys,
          perNode(c));
    } catch (AssertionError | RuntimeException e) {
      throw processes.withOutputs(e, names);
    }
  }

  /** The text the query {@code sql} answers, or null for no row. */
  private static String text(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static String perNode(Connection c) throws SQLException {
    StringBuilder text = new StringBuilder();
    try (Statement s = c.createStatement();
        var rs =
            s.executeQuery(
                "SELECT node, COUNT(*) FROM cluster_keyed_runs GROUP BY node ORDER BY node")) {
      while (rs.next()) {
        text.append(rs.getString(1)).append('=').append(rs.getLong(2)).append(' ');
      }
    }
    return text.toString().trim();
  }
}
