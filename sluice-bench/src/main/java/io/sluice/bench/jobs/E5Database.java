package io.sluice.bench.jobs;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;

/**
 * The PostgreSQL database of benchmark E5 as the driver sees it: made when missing, a fresh schema
 * per run, the nodes' URL (their backends named {@value #NODE_APPLICATION}, so their CPU can be
 * told from other sessions'), and the readings: jobs left, and transactions from {@code
 * pg_stat_database} read through database {@code postgres}, so that reading adds none.
 */
final class E5Database {

  static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  static final String USER = "postgres";

  /** The application name of the nodes' connections. */
  static final String NODE_APPLICATION = "sluice-e5-node";

  private final String database;
  private final String schema;

  E5Database(String database, String schema) {
    this.database = database;
    this.schema = schema;
  }

  /** Makes the database unless it exists. */
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

  /** Drops the run's schema with everything in it and makes it again, empty. */
  void freshSchema() throws SQLException {
    try (Connection c = DriverManager.getConnection(SERVER + database, USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      s.execute("CREATE SCHEMA " + schema);
    }
  }

  /** The URL of the run's schema. */
  String schemaUrl() {
    return SERVER + database + "?currentSchema=" + schema;
  }

  /** The URL the nodes connect with: the schema's, their backends named. */
  String nodeUrl() {
    return schemaUrl() + "&ApplicationName=" + NODE_APPLICATION;
  }

  /** A connection to the run's schema. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(schemaUrl(), USER, null);
  }

  /** A connection to database postgres, for readings that must not count in the benchmark's. */
  Connection stats() throws SQLException {
    return DriverManager.getConnection(SERVER + "postgres", USER, null);
  }

  /** The driver's own storage on the run's schema: it migrates the schema and creates the jobs. */
  Storage storage() {
    StorageConfig config =
        StorageConfig.builder()
            .url(schemaUrl())
            .user(USER)
            .poolSize(2)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    return Storages.open(
        config,
        E5Node.VALUES,
        new SimpleMeterRegistry(),
        Clock.systemUTC(),
        E5Database.class.getClassLoader());
  }

  /** Runs {@code sql} on {@code c}. */
  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The jobs left in the run's schema (waiting or running). */
  static long jobsLeft(Connection c) throws SQLException {
    return number(c, "SELECT count(*) FROM sluice_job");
  }

  /** The benchmark database's transactions so far; {@code stats} is a {@link #stats()}. */
  long transactions(Connection stats) throws SQLException {
    return number(
        stats,
        "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '"
            + database
            + "'");
  }

  /**
   * The transactions once the nodes stopped: a backend hands its counts in at most once a second
   * while busy, and at its exit, so this waits for the nodes' backends to be gone.
   */
  long transactionsAfterStop() throws SQLException, InterruptedException {
    try (Connection c = stats()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      String backends =
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"
              + NODE_APPLICATION
              + "'";
      while (number(c, backends) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      Thread.sleep(200);
      return transactions(c);
    }
  }

  private static long number(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
