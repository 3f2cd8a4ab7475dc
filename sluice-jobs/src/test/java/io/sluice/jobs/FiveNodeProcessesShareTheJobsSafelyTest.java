package io.sluice.jobs;

import static io.sluice.jobs.NodeProcesses.number;
import static io.sluice.jobs.NodeProcesses.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.Storage;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claims that matter for a cluster, with five executor nodes, each a process of its own, on one
 * PostgreSQL: every job runs, and runs once (each run is recorded by the handler, not only each
 * completion); a node killed with SIGKILL has its jobs finished by the others within the lease
 * bound; a node frozen (SIGSTOP) past its lease and woken (SIGCONT) completes nothing it no longer
 * owns.
 *
 * <p>A node frozen in the middle of a transaction keeps that transaction's row locks until it wakes
 * (or PostgreSQL drops its connection), and reclaim skips locked rows: those jobs wait for the
 * frozen node, and are completed by it once it wakes, legitimately, since nobody else took them.
 */
@Tag("cluster")
class FiveNodeProcessesShareTheJobsSafelyTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int NODES = 5;

  /** Jobs run more than once with no run on node-1, the one killed or frozen: none may be. */
  private static final String RUN_TWICE_WITHOUT_NODE_1 =
      "SELECT COUNT(*) FROM (SELECT job_id FROM cluster_runs GROUP BY job_id"
          + " HAVING COUNT(*) > 1 AND NOT bool_or(node = 'node-1')) twice";

  @TempDir Path logs;

  private NodeProcesses processes;
  private List<Process> nodes;
  private final List<String> names =
      IntStream.rangeClosed(1, NODES).mapToObj(i -> "node-" + i).toList();

  @BeforeEach
  void processes() {
    processes = new NodeProcesses(logs);
    nodes = processes.all();
  }

  @AfterEach
  void stopNodes() throws Exception {
    processes.stopAll();
  }

  private String output(String node) {
    return processes.output(node);
  }

  /** Starts the nodes, each taking {@code workMillis} per job, and waits until all are up. */
  private void startCluster(long workMillis) throws IOException {
    for (String node : names) {
      processes.start(DB.url(), node, Long.toString(workMillis));
    }
    // Every node is up before the jobs exist, so the notification of the new jobs reaches all.
    try {
      await()
          .atMost(Duration.ofMinutes(1))
          .failFast("a node process died", () -> nodes.stream().anyMatch(p -> !p.isAlive()))
          .until(() -> processes.ready(names));
    } catch (RuntimeException e) {
      throw processes.withOutputs(e, names); // why a node could not start
    }
  }

  /** Every test starts from an empty schema: no job, no node, no run. */
  private static void createTable() throws SQLException {
    DB.dropTables();
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS cluster_runs");
      s.execute(
          "CREATE TABLE cluster_runs (job_id BIGINT NOT NULL, node TEXT NOT NULL,"
              + " at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())");
    }
  }

  private static void createJobs(int count) {
    try (Storage storage = JobTestStorages.postgres(DB, Clock.systemUTC())) {
      JobStore jobs = JobTestStorages.jobs(storage);
      List<NewJob> batch = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        batch.add(NewJob.of("work", i));
      }
      assertThat(jobs.createAll(batch)).hasSize(count);
    }
  }

  private void awaitAllDone(Connection c, Duration within, Process... allowedDead) {
    List<Process> mayDie = List.of(allowedDead);
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(200))
        .failFast(
            "a node process died",
            () -> nodes.stream().anyMatch(p -> !mayDie.contains(p) && !p.isAlive()))
        .until(() -> number(c, "SELECT COUNT(*) FROM sluice_job") == 0);
  }

  private static Map<String, Long> runsPerNode(Connection c) throws SQLException {
    Map<String, Long> perNode = new TreeMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT node, COUNT(*) FROM cluster_runs GROUP BY node")) {
      while (rs.next()) {
        perNode.put(rs.getString(1), rs.getLong(2));
      }
    }
    return perNode;
  }

  @Test
  void tenThousandJobsOnFiveNodeProcessesEachRunExactlyOnce() throws Exception {
    createTable();
    startCluster(0);
    createJobs(10_000);
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null)) {
      awaitAllDone(c, Duration.ofMinutes(3));
      assertThat(number(c, "SELECT COUNT(*) FROM cluster_runs")).as("runs").isEqualTo(10_000);
      assertThat(number(c, "SELECT COUNT(DISTINCT job_id) FROM cluster_runs"))
          .as("distinct jobs run")
          .isEqualTo(10_000);
      Map<String, Long> perNode = runsPerNode(c);
      System.out.println("10,000 jobs, runs per node: " + perNode);
      assertThat(perNode).as("every node took a share").hasSize(NODES);
    } catch (AssertionError | RuntimeException e) {
      throw processes.withOutputs(e, names);
    }
  }

  @Test
  void theJobsOfANodeKilledMidRunFinishOnTheOthersWithinTenSeconds() throws Exception {
    createTable();
    startCluster(100);
    createJobs(3_000);
    Process killed = nodes.getFirst();
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null)) {
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> number(c, "SELECT COUNT(*) FROM cluster_runs WHERE node = 'node-1'") >= 30);
      killed.destroyForcibly(); // SIGKILL
      killed.waitFor(10, TimeUnit.SECONDS);
      long killedAtMillis =
          number(c, "SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint");

      awaitAllDone(c, Duration.ofMinutes(2), killed);
      assertThat(number(c, "SELECT COUNT(DISTINCT job_id) FROM cluster_runs"))
          .as("distinct jobs run")
          .isEqualTo(3_000);
      assertThat(number(c, RUN_TWICE_WITHOUT_NODE_1))
          .as("jobs run twice though the node that ran them first lives")
          .isZero();
      long lastRunMillis =
          number(c, "SELECT (EXTRACT(EPOCH FROM MAX(at)) * 1000)::bigint FROM cluster_runs");
      System.out.printf(
          "node-1 killed; the last job ended %d ms later; runs per node %s%n",
          lastRunMillis - killedAtMillis, runsPerNode(c));
      assertThat(lastRunMillis - killedAtMillis)
          .as("ms from the kill to the end of the last job")
          .isLessThanOrEqualTo(10_000);
    } catch (AssertionError | RuntimeException e) {
      throw processes.withOutputs(e, names);
    }
  }

  @Test
  void aNodeFrozenPastItsLeaseCompletesNothingItNoLongerOwnsWhenItWakes() throws Exception {
    createTable();
    startCluster(100);
    createJobs(3_000);
    Process frozen = nodes.getFirst();
    try (Connection c = DriverManager.getConnection(DB.url(), PostgresTestDatabase.USER, null)) {
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> number(c, "SELECT COUNT(*) FROM cluster_runs WHERE node = 'node-1'") >= 30);
      signal(frozen, "STOP");
      try {
        // Its lease lapses and another node takes its running jobs back. (Rows it was writing in
        // a transaction when it froze stay locked, so not all of them: see the class comment.)
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> {
                  for (int i = 2; i <= NODES; i++) {
                    if (output("node-" + i).contains("held by nodes whose lease lapsed")) {
                      return true;
                    }
                  }
                  return false;
                });
      } finally {
        signal(frozen, "CONT");
      }
      awaitAllDone(c, Duration.ofMinutes(2));
      assertThat(number(c, "SELECT COUNT(DISTINCT job_id) FROM cluster_runs"))
          .as("distinct jobs run")
          .isEqualTo(3_000);
      assertThat(number(c, RUN_TWICE_WITHOUT_NODE_1))
          .as("jobs run twice though the node that ran them first was never frozen")
          .isZero();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> output("node-1").contains("could not complete"));
      assertThat(frozen.isAlive()).as("the frozen node lives on").isTrue();
      System.out.println("node-1 frozen and woken; runs per node " + runsPerNode(c));
    } catch (AssertionError | RuntimeException e) {
      throw processes.withOutputs(e, names);
    }
  }
}
