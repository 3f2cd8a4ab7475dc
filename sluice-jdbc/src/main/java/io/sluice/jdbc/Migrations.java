package io.sluice.jdbc;

import io.sluice.core.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The schema, owned by the project: versioned SQL files under {@code
 * io/sluice/jdbc/migrations/<dialect>/V<n>__<description>.sql}, applied at open in one transaction
 * and recorded in {@code sluice_schema}. A database with a newer schema than this code knows is
 * refused rather than written to.
 */
final class Migrations {

  /** One schema version: its number and the description in its file name. */
  record Migration(int version, String description) {
    String resource(Dialect dialect) {
      return dialect.migrationFolder() + "V" + version + "__" + description + ".sql";
    }
  }

  /** Every migration, oldest first; a new one is added at the end with the next version. */
  static final List<Migration> ALL =
      List.of(
          new Migration(1, "stores_and_queues"),
          new Migration(2, "lean_rows"),
          new Migration(3, "jobs"),
          new Migration(4, "batch"),
          new Migration(5, "unreadable_records"),
          new Migration(6, "exclusive_jobs"),
          new Migration(7, "batch_output"),
          new Migration(8, "batch_input_key"),
          new Migration(9, "batch_parameters"));

  /** The newest version this code knows. */
  static final int LATEST = ALL.getLast().version();

  private Migrations() {}

  /**
   * Brings the schema on {@code connection} (auto-commit) to {@link #LATEST} in one transaction,
   * after taking the dialect's lock so nodes starting together do not race; returns the version.
   */
  static int migrate(Connection connection, Dialect dialect, Clock clock, String where)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(dialect.begin());
      try {
        if (dialect.schemaLock() != null) {
          statement.execute(dialect.schemaLock());
        }
        statement.execute(
            "CREATE TABLE IF NOT EXISTS sluice_schema (version INTEGER PRIMARY KEY,"
                + " description TEXT NOT NULL, applied_at BIGINT NOT NULL)");
        int current = currentVersion(statement);
        if (current > LATEST) {
          throw new StoreException(
              where
                  + " has schema version "
                  + current
                  + ", this Sluice knows up to "
                  + LATEST
                  + "; upgrade Sluice or use another database");
        }
        for (Migration migration : ALL) {
          if (migration.version() > current) {
            apply(connection, statement, dialect, migration, clock);
          }
        }
        statement.execute("COMMIT");
        return LATEST;
      } catch (SQLException | RuntimeException e) {
        try {
          statement.execute("ROLLBACK");
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }

  private static int currentVersion(Statement statement) throws SQLException {
    try (ResultSet rs = statement.executeQuery("SELECT MAX(version) FROM sluice_schema")) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  private static void apply(
      Connection connection, Statement statement, Dialect dialect, Migration migration, Clock clock)
      throws SQLException {
    for (String sql : statements(read(migration.resource(dialect)))) {
      statement.execute(sql);
    }
    try (PreparedStatement record =
        connection.prepareStatement(
            "INSERT INTO sluice_schema (version, description, applied_at) VALUES (?, ?, ?)")) {
      record.setInt(1, migration.version());
      record.setString(2, migration.description());
      record.setLong(3, clock.millis());
      record.executeUpdate();
    }
  }

  /**
   * The statements of a migration file: comment lines dropped, each ending at a line that ends with
   * {@code ;}, except inside a trigger's {@code BEGIN} ... {@code END;} block.
   */
  static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inBlock = false;
    for (String line : script.split("\n")) {
      String code = line.strip();
      if (code.isEmpty() || code.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      inBlock = inBlock ? !code.equalsIgnoreCase("END;") : code.equalsIgnoreCase("BEGIN");
      if (!inBlock && code.endsWith(";")) {
        String statement = current.toString().strip();
        statements.add(statement.substring(0, statement.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }

  private static String read(String resource) {
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("The migration " + resource + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("Could not read the migration " + resource, e);
    }
  }
}
