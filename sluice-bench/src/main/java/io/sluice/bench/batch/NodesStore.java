package io.sluice.bench.batch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL store of {@link NodesBenchmark} as its driver sees it: a fresh schema per run,
 * migrated before the nodes start (a user's store exists before a job runs on it), the URL the
 * nodes are given (their backends named {@value #APPLICATION}, so their CPU is told from other
 * sessions'), and the readings: the instance, each node's share ({@code sluice_batch_node}), the
 * database's commits ({@code pg_stat_database}, read through database {@code postgres} so that
 * reading adds none), the rows the run's tables saw ({@code pg_stat_user_tables} of the schema:
 * only this run's), and the statements when {@code pg_stat_statements} is there.
 */
final class NodesStore {

  static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  static final String USER = "postgres";

  /** The application name of the nodes' connections. */
  static final String APPLICATION = "sluice-bench-nodes";

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  /** The instance as the store has it once the nodes are done. */
  record Instance(long count, int state, long loaded, long processed, long failed, long elapsedMs) {

    /** State 3 is COMPLETED (V4__batch.sql). */
    boolean completed() {
      return state == 3;
    }
  }

  /** One node's row of {@code sluice_batch_node}. */
  record Share(String node, long processed, long failed, long blocks) {}

  /** Rows inserted, updated and deleted, and index and sequential scans, on the run's tables. */
  record Rows(long inserted, long updated, long deleted, long indexScans, long seqScans) {
    Rows since(Rows earlier) {
      return new Rows(
          inserted - earlier.inserted,
          updated - earlier.updated,
          deleted - earlier.deleted,
          indexScans - earlier.indexScans,
          seqScans - earlier.seqScans);
    }
  }

  private final String database;
  private final String schema;

  NodesStore(String database, String schema) {
    this.database = database;
    this.schema = schema;
  }

  String database() {
    return database;
  }

  String schema() {
    return schema;
  }

  /** The URL the nodes connect with: the schema's, their backends named. */
  String nodeUrl() {
    return SERVER + database + "?currentSchema=" + schema + "&ApplicationName=" + APPLICATION;
  }

  /** Makes the database unless it exists (through database postgres). */
  void ensureExists() throws SQLException {
    try (Connection c = stats();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'")) {
      if (!rs.next()) {
        s.execute("CREATE DATABASE " + database);
      }
    }
  }

  /**
   * Drops the run's schema with everything in it, makes it again and migrates it (this benchmark's
   * class path holds the modules the CLI has: core, jobs, batch), so the first node does not pay
   * for making the tables.
   */
  void freshSchema() throws SQLException {
    try (Connection c = DriverManager.getConnection(SERVER + database, USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      s.execute("CREATE SCHEMA " + schema);
    }
    StorageConfig config =
        StorageConfig.builder()
            .url(SERVER + database + "?currentSchema=" + schema)
            .user(USER)
            .poolSize(1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    try (Storage storage =
        Storages.open(
            config,
            VALUES,
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            NodesStore.class.getClassLoader())) {
      storage.describe(); // opened means migrated
    }
  }

  /** A connection to the run's schema. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(SERVER + database + "?currentSchema=" + schema, USER, null);
  }

  /** A connection to database postgres, for readings that must not count in the benchmark's. */
  Connection stats() throws SQLException {
    return DriverManager.getConnection(SERVER + "postgres", USER, null);
  }

  /** How many instances the schema holds (one statement, one transaction in the database). */
  static long instances(Connection c) throws SQLException {
    return number(c, "SELECT count(*) FROM sluice_batch_instance");
  }

  /** The (first) instance and how many there are. */
  static Instance instance(Connection c) throws SQLException {
    long count = instances(c);
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT state, loaded, processed, failed, updated_at - created_at"
                    + " FROM sluice_batch_instance ORDER BY id LIMIT 1")) {
      if (!rs.next()) {
        return new Instance(0, -1, 0, 0, 0, 0);
      }
      return new Instance(
          count, rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }
  }

  /** Each node's share of the (first) instance, by node id. */
  static List<Share> shares(Connection c) throws SQLException {
    List<Share> shares = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT node, processed, failed, blocks FROM sluice_batch_node"
                    + " WHERE instance_id = (SELECT min(id) FROM sluice_batch_instance)"
                    + " ORDER BY node")) {
      while (rs.next()) {
        shares.add(new Share(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
      }
    }
    return shares;
  }

  /** The rows the schema's tables saw so far; {@code c} is a {@link #connect()}. */
  Rows rows(Connection c) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT coalesce(sum(n_tup_ins), 0), coalesce(sum(n_tup_upd), 0),"
                + " coalesce(sum(n_tup_del), 0), coalesce(sum(idx_scan), 0),"
                + " coalesce(sum(seq_scan), 0) FROM pg_stat_user_tables WHERE schemaname = ?")) {
      s.setString(1, schema);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return new Rows(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
      }
    }
  }

  /** The database's commits so far; {@code stats} is a {@link #stats()}. */
  long commits(Connection stats) throws SQLException {
    return number(
        stats, "SELECT xact_commit FROM pg_stat_database WHERE datname = '" + database + "'");
  }

  /** The database's rollbacks so far; {@code stats} is a {@link #stats()}. */
  long rollbacks(Connection stats) throws SQLException {
    return number(
        stats, "SELECT xact_rollback FROM pg_stat_database WHERE datname = '" + database + "'");
  }

  /**
   * The statements run in the database so far, from {@code pg_stat_statements} (in database
   * postgres), or -1 when it cannot be read: not created there, or not loaded by the server ({@code
   * shared_preload_libraries}).
   */
  long statements(Connection stats) {
    try {
      return number(
          stats,
          "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
              + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '"
              + database
              + "')");
    } catch (SQLException e) {
      return -1;
    }
  }

  /** Why {@link #statements} cannot be read, or null when it can. */
  String whyNoStatements(Connection stats) throws SQLException {
    String preload = text(stats, "SHOW shared_preload_libraries");
    boolean created =
        number(stats, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'") > 0;
    if (statements(stats) >= 0) {
      return null;
    }
    return "pg_stat_statements cannot be read (shared_preload_libraries is '"
        + preload
        + "', the extension is "
        + (created ? "" : "not ")
        + "created in database postgres): statements are not counted. To count them:"
        + " shared_preload_libraries = 'pg_stat_statements', a restart, then CREATE EXTENSION"
        + " pg_stat_statements in database postgres";
  }

  /**
   * Waits (10 s at most) until no backend of the nodes is left: a backend hands its counts in at
   * its exit, so the commits are read after that.
   */
  static void awaitBackendsGone(Connection stats) throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    String backends =
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + APPLICATION + "'";
    while (number(stats, backends) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    Thread.sleep(200);
  }

  private static long number(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String text(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
