package io.sluice.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The MariaDB at 127.0.0.1:3306 (user root, empty password), with a database of its own per test
 * class ({@code sluice_test_<random>}, dropped afterwards) so classes never see each other's
 * tables. Register it as a static {@code @RegisterExtension}. Without a server the tests are
 * skipped, except in CI (env {@code CI=true}), where they fail. The driver is the test's: this
 * class needs a MariaDB or MySQL driver on the class path only when it runs.
 */
public final class MariaDbTestDatabase implements BeforeAllCallback, AfterAllCallback {

  /** The server's host. */
  public static final String HOST = "127.0.0.1";

  /** The server's port. */
  public static final int PORT = 3306;

  /** The server, without a database. */
  public static final String BASE_URL = "jdbc:mariadb://" + HOST + ":" + PORT + "/";

  /** The user, with an empty password. */
  public static final String USER = "root";

  private final String database =
      "sluice_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  /** Skips (or in CI fails) without a server; makes the database. */
  @Override
  public void beforeAll(ExtensionContext context) throws SQLException {
    TestServers.require("MariaDB", HOST, PORT, "user root, empty password");
    execute("CREATE DATABASE " + database);
  }

  /** Drops the database. */
  @Override
  public void afterAll(ExtensionContext context) throws SQLException {
    if (TestServers.reachable(HOST, PORT)) {
      execute("DROP DATABASE IF EXISTS " + database);
    }
  }

  /** The database this test class works in. */
  public String database() {
    return database;
  }

  /** The URL of this class's database. */
  public String url() {
    return BASE_URL + database;
  }

  /** A plain connection to this class's database. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), USER, "");
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(BASE_URL, USER, "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
