package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice batch run} node processes sharing one batch job's instance on a test's PostgreSQL
 * schema, for the cluster tests: the job's configuration, the nodes (each in a directory of its
 * own, its log there, its steps held at {@link HeldWhileGateExists} until {@link #release()}), and
 * what the store and the job's sink say. The job, {@value #JOB}, runs a {@code generator} input
 * through a CPU-light step and a step whose aggregator inserts one row per group into {@code
 * batch_group}: the node (the {@code NODE} variable each process is given), the group's size and
 * the input positions of its records.
 */
final class BatchNodes implements AutoCloseable {

  static final String JOB = "numbers";

  /** The aggregator's size. */
  static final int GROUP = 500;

  /** Epoch milliseconds on the database's clock, as the node leases measure them. */
  static final String NOW = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint";

  /** A group the sink recorded: which node handed it over, and its records' input positions. */
  record Group(String node, List<Long> positions) {}

  /** The instance as the store has it. */
  record Instance(
      long id,
      String state,
      long loaded,
      long processed,
      long successful,
      long failed,
      boolean inputDone,
      String result) {}

  private final Path work;
  private final PostgresTestDatabase db;
  private final Map<String, SluiceProcess> nodes = new LinkedHashMap<>();

  BatchNodes(Path work, PostgresTestDatabase db) throws SQLException {
    this.work = work;
    this.db = db;
    db.execute(
        "CREATE TABLE IF NOT EXISTS batch_group (id BIGSERIAL PRIMARY KEY, node TEXT NOT NULL,"
            + " instance BIGINT NOT NULL, size INT NOT NULL, positions BIGINT[] NOT NULL,"
            + " at BIGINT NOT NULL DEFAULT "
            + NOW
            + ")");
  }

  /**
   * Writes {@code file} in the test's directory: job {@value #JOB} over {@code records} records in
   * blocks of {@code blockSize}, its first step named {@code firstStep}; returns its path.
   */
  Path config(String file, long records, int blockSize, String firstStep) throws IOException {
    return Files.writeString(
        work.resolve(file),
        """
        sluice:
          store: { url: "%1$s", user: %2$s }
        dataSources:
          - name: sink
            url: "%1$s"
            user: %2$s
        batch:
          - name: %3$s
            blockSize: %4$d
            input: { generator: { count: %5$d } }
            steps:
              - name: %6$s
                processors:
                  - component: { class: io.sluice.cli.HeldWhileGateExists }
                  - expression: { expression: "payload * 2" }
              - name: group
                aggregator:
                  size: %7$d
                  sink:
                    - db-insert:
                        dataSource: sink
                        sql: >-
                          INSERT INTO batch_group (node, instance, size, positions)
                          VALUES (:node, :instance, :size,
                          CAST(string_to_array(btrim(:positions, '[]'), ', ') AS BIGINT[]))
                        parameters:
                          node: "${NODE}"
                          instance: "#[vars.instance]"
                          size: "#[vars.positions.size()]"
                          positions: "#[vars.positions.toString()]"
        """
            .formatted(
                db.url(), PostgresTestDatabase.USER, JOB, blockSize, records, firstStep, GROUP));
  }

  /**
   * Writes {@code file} in the test's directory: job {@value #JOB} over {@code records} records in
   * blocks of {@code blockSize}, one held step doubling each number, written to the CSV file {@code
   * out} (column n); returns its path.
   */
  Path csvConfig(String file, long records, int blockSize, Path out) throws IOException {
    return Files.writeString(
        work.resolve(file),
        """
        sluice:
          store: { url: "%1$s", user: %2$s }
        batch:
          - name: %3$s
            blockSize: %4$d
            input: { generator: { count: %5$d } }
            output: { csv: "%6$s", columns: [n] }
            steps:
              - name: double
                processors:
                  - component: { class: io.sluice.cli.HeldWhileGateExists }
                  - expression: { expression: "payload * 2" }
        """
            .formatted(db.url(), PostgresTestDatabase.USER, JOB, blockSize, records, out));
  }

  /**
   * Starts node {@code name} running {@code config} in a directory of its own, its steps held until
   * {@link #release()}.
   */
  SluiceProcess start(String name, Path config) throws IOException {
    Path dir = Files.createDirectories(work.resolve(name));
    Files.writeString(dir.resolve(HeldWhileGateExists.GATE), "");
    SluiceProcess node =
        SluiceProcess.start(
            dir, Map.of("NODE", name), "batch", "run", config.toString(), "--progress", "lines");
    nodes.put(name, node);
    return node;
  }

  /** Lets every node's steps go on. */
  void release() throws IOException {
    for (String name : nodes.keySet()) {
      Files.deleteIfExists(work.resolve(name).resolve(HeldWhileGateExists.GATE));
    }
  }

  /** Sends {@code signal} (STOP, CONT) to {@code node}. */
  static void signal(SluiceProcess node, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(node.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
        .as("kill -%s %d", signal, node.pid())
        .isTrue();
  }

  /**
   * Starts node {@code name} as {@link #start} does and waits until it holds blocks of the instance
   * (the first node: once it started it), its steps held: its first claim, which reads stored
   * records for the first time in the process, is behind it. The cluster tests start the nodes one
   * after the other so: a first claim made while other processes start on a small machine can take
   * longer than the store's idle-in-transaction timeout (5 s), and the node then fails the whole
   * instance (a product bug these tests found; see the cluster tests' report).
   */
  SluiceProcess startHoldingBlocks(String name, Path config) throws Exception {
    SluiceProcess node = start(name, config);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(90))
        .failFast("node " + name + " ended", () -> !node.isAlive())
        .until(() -> live() && holds(node) > 0);
    return node;
  }

  /** The blocks {@code node} holds now. */
  long holds(SluiceProcess node) throws SQLException {
    return number("SELECT COUNT(*) FROM sluice_batch_block WHERE owner LIKE ?", "%-" + node.pid());
  }

  /** Whether {@code node} said it joins the nodes running the instance. */
  static boolean joined(SluiceProcess node) throws IOException {
    return node.log().contains("joins the nodes running it");
  }

  /** The node id (host and process id) {@code node} claims under, as the store names it. */
  String nodeId(SluiceProcess node) throws SQLException {
    List<String> ids =
        strings(
            "SELECT node FROM sluice_job_node WHERE node LIKE ? UNION"
                + " SELECT node FROM sluice_batch_node WHERE node LIKE ?",
            "%-" + node.pid(),
            "%-" + node.pid());
    return ids.isEmpty() ? null : ids.getFirst();
  }

  /** The one instance of the job; null before there is one. */
  Instance instance() throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT id, state, loaded, processed, successful, failed, input_done, result"
                    + " FROM sluice_batch_instance WHERE job = ? ORDER BY id")) {
      s.setString(1, JOB);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        String[] states = {"LOADING", "RUNNING", "STOPPED", "COMPLETED", "FAILED"};
        Instance found =
            new Instance(
                rs.getLong(1),
                states[rs.getInt(2)],
                rs.getLong(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getLong(6),
                rs.getBoolean(7),
                rs.getString(8));
        assertThat(rs.next()).as("a second instance of the job").isFalse();
        return found;
      }
    }
  }

  /** Whether the instance is loading or running; false before the store has its tables. */
  boolean live() throws SQLException {
    Instance at;
    try {
      at = instance();
    } catch (SQLException e) {
      if ("42P01".equals(e.getSQLState())) {
        return false; // undefined table: the first node has not migrated the schema yet
      }
      throw e;
    }
    return at != null && (at.state().equals("LOADING") || at.state().equals("RUNNING"));
  }

  /** The records each step processed, by step index. */
  Map<Integer, Long> stepsProcessed() throws SQLException {
    Map<Integer, Long> steps = new LinkedHashMap<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT step, processed FROM sluice_batch_step ORDER BY step");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        steps.put(rs.getInt(1), rs.getLong(2));
      }
    }
    return steps;
  }

  /** The records each node took through the last step, by node id ({@code sluice_batch_node}). */
  Map<String, Long> processedByNode() throws SQLException {
    return byNode("processed");
  }

  /** The blocks each node took out after the last step, by node id. */
  Map<String, Long> blocksByNode() throws SQLException {
    return byNode("blocks");
  }

  private Map<String, Long> byNode(String column) throws SQLException {
    Map<String, Long> counts = new LinkedHashMap<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT node, " + column + " FROM sluice_batch_node ORDER BY node");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        counts.put(rs.getString(1), rs.getLong(2));
      }
    }
    return counts;
  }

  /** The groups the sink recorded, in the order it recorded them. */
  List<Group> groups() throws SQLException {
    List<Group> groups = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT node, positions FROM batch_group ORDER BY id");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        Array array = rs.getArray(2);
        groups.add(new Group(rs.getString(1), List.of((Long[]) array.getArray())));
      }
    }
    return groups;
  }

  /** The number {@code sql} answers, its parameters texts. */
  long number(String sql, Object... parameters) throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        s.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  List<String> strings(String sql, String... parameters) throws SQLException {
    List<String> found = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        s.setString(i + 1, parameters[i]);
      }
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          found.add(rs.getString(1));
        }
      }
    }
    return found;
  }

  /** Adds every node's log (its last 200 lines) to {@code e}, to say what the nodes did. */
  void addLogs(Throwable e) {
    for (Map.Entry<String, SluiceProcess> node : nodes.entrySet()) {
      String log;
      try {
        List<String> lines = node.getValue().log().lines().toList();
        log = String.join("\n", lines.subList(Math.max(0, lines.size() - 200), lines.size()));
      } catch (IOException read) {
        log = "(unreadable: " + read + ")";
      }
      e.addSuppressed(
          new AssertionError(
              "node " + node.getKey() + " (pid " + node.getValue().pid() + ") log:\n" + log));
    }
  }

  /** Wakes a stopped node and kills every one still running. */
  @Override
  public void close() {
    for (SluiceProcess node : nodes.values()) {
      if (node.isAlive()) {
        try {
          signal(node, "CONT");
        } catch (Exception | AssertionError e) {
          // It is killed next anyway.
        }
      }
      node.close();
    }
  }
}
