package io.sluice.testkit;

import io.sluice.core.store.StorageConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The PostgreSQL at 127.0.0.1:5432 (trust auth, user postgres, database test), with a schema of its
 * own per test class ({@code sluice_test_<random>}, dropped afterwards) so classes never see each
 * other's tables and migrations run outside {@code public}. Register it as a static
 * {@code @RegisterExtension}. Without a server the tests are skipped, except in CI (env {@code
 * CI=true}), where they fail: there PostgreSQL is required.
 */
public final class PostgresTestDatabase implements BeforeAllCallback, AfterAllCallback {

  /** The server's host. */
  public static final String HOST = "127.0.0.1";

  /** The server's port. */
  public static final int PORT = 5432;

  /** The test database, without a schema. */
  public static final String BASE_URL = "jdbc:postgresql://" + HOST + ":" + PORT + "/test";

  /** The user, trusted without a password. */
  public static final String USER = "postgres";

  private final String schema =
      "sluice_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  /**
   * Skips (or in CI fails) without a server; makes the schema. The nested classes of the class it
   * is registered on (a contract's parts) share that class's schema.
   */
  @Override
  public void beforeAll(ExtensionContext context) throws SQLException {
    if (nested(context)) {
      return;
    }
    requireServer();
    execute("CREATE SCHEMA " + schema);
  }

  /** Drops the schema. */
  @Override
  public void afterAll(ExtensionContext context) throws SQLException {
    if (!nested(context) && reachable()) {
      execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  private static boolean nested(ExtensionContext context) {
    return context.getRequiredTestClass().isAnnotationPresent(Nested.class);
  }

  /** The schema this test class works in. */
  public String schema() {
    return schema;
  }

  /** The URL of this class's schema. */
  public String url() {
    return BASE_URL + "?currentSchema=" + schema;
  }

  /** A storage configuration on this class's schema. */
  public StorageConfig config() {
    return StorageConfig.builder()
        .url(url())
        .user(USER)
        .poolSize(4)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /**
   * A storage configuration on this class's schema reached through {@code proxy} (to cut the
   * database away and bring it back), with 2 connections that give up connecting after 1 s.
   */
  public StorageConfig configThrough(TcpProxy proxy) {
    return StorageConfig.builder()
        .url("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test?currentSchema=" + schema)
        .user(USER)
        .poolSize(2)
        .connectTimeout(Duration.ofSeconds(1))
        .build();
  }

  /** Drops Sluice's tables from this class's schema: the next storage starts from nothing. */
  public void dropTables() throws SQLException {
    execute(
        "DROP TABLE IF EXISTS sluice_queue_payload, sluice_queue_dead, sluice_queue,"
            + " sluice_object_store,"
            + " sluice_job_payload, sluice_job_error, sluice_job_node, sluice_job,"
            + " sluice_job_history,"
            + " sluice_batch_instance, sluice_batch_block, sluice_batch_step, sluice_batch_failure,"
            + " sluice_batch_node,"
            + " sluice_schema"
            + " CASCADE");
  }

  /** A plain connection to this class's schema, for looking behind the storage's back. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), USER, null);
  }

  /** Runs {@code sql} in this class's schema. */
  public void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(BASE_URL, USER, null);
        Statement statement = connection.createStatement()) {
      statement.execute("SET search_path TO " + schema + ", public");
      statement.execute(sql);
    }
  }

  private static void requireServer() {
    TestServers.require("PostgreSQL", HOST, PORT, "user postgres, database test, trust auth");
  }

  private static boolean reachable() {
    return TestServers.reachable(HOST, PORT);
  }
}
