package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One of the three databases the tests run on, with a data source named {@code db} on this test
 * class's own schema (PostgreSQL), database (MariaDB) or file (SQLite), and what differs between
 * them in the tests' DDL.
 */
record TestDb(String kind, String url, String user) {

  /** The three, for a class that registers the PostgreSQL and MariaDB extensions. */
  static TestDb[] all(PostgresTestDatabase postgres, MariaDbTestDatabase mariadb, Path dir) {
    return new TestDb[] {postgres(postgres), mariadb(mariadb), sqlite(dir)};
  }

  static TestDb postgres(PostgresTestDatabase postgres) {
    return new TestDb("postgresql", postgres.url(), PostgresTestDatabase.USER);
  }

  static TestDb mariadb(MariaDbTestDatabase mariadb) {
    return new TestDb("mariadb", mariadb.url(), MariaDbTestDatabase.USER);
  }

  static TestDb sqlite(Path dir) {
    return new TestDb("sqlite", "jdbc:sqlite:" + dir.resolve("test.db"), null);
  }

  @Override
  public String toString() {
    return kind;
  }

  /** A data source named {@code db} on this database, 4 connections, a 5 s timeout. */
  DataSourceConfig config() {
    return DataSourceConfig.builder("db", url)
        .user(user)
        .password(kind.equals("mariadb") ? "" : null)
        .maxSize(4)
        .connectionTimeout(Duration.ofSeconds(5))
        .build();
  }

  DataSources dataSources() {
    return new DataSources(java.util.List.of(config()));
  }

  /** A table name no other test uses. */
  static String table(String prefix) {
    return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
  }

  /** The DDL of a generated integer key. */
  String idColumn() {
    return switch (kind) {
      case "postgresql" -> "id bigserial primary key";
      case "mariadb" -> "id bigint auto_increment primary key";
      default -> "id integer primary key autoincrement";
    };
  }

  /** Runs {@code sql} on a plain connection. */
  void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url, user, null);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** The one number {@code sql} gives. */
  long number(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url, user, null);
        Statement statement = connection.createStatement();
        var results = statement.executeQuery(sql)) {
      results.next();
      return results.getLong(1);
    }
  }

  /** Parameters from {@code name, template, name, template...}. */
  static Map<String, Template> parameters(String... pairs) {
    Map<String, Template> parameters = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      parameters.put(pairs[i], Template.parse("parameters." + pairs[i], pairs[i + 1]));
    }
    return parameters;
  }

  /** Runs {@code message} through a flow of {@code flow} in a new application, and stops it. */
  static Message run(Flow flow, Message message) throws Exception {
    try (Application application = Application.builder().flow(flow).build()) {
      application.start();
      return application.send(flow.name(), message).get(30, TimeUnit.SECONDS);
    }
  }
}
