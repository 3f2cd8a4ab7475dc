package io.sluice.batch.internal;

import io.sluice.core.store.StoreException;
import io.sluice.jdbc.JdbcAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The batch instance table of an embedded SQLite store, reached through a connection of its own
 * while another process may own the store (its storage holds the lock file, so this process could
 * not open it). SQLite serializes the writes of several processes on one file itself; the owner's
 * rules (one writer, stale locks handed back at open) are about its queues and jobs, which this
 * never touches. The file is never created or migrated here: when it, or its batch table, does not
 * exist, there are no instances.
 */
public final class SqliteGuest implements InstanceTable.Sql, AutoCloseable {

  private final Path file;
  private final Connection connection;

  private SqliteGuest(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /**
   * The table of {@code file}, waiting up to {@code busyTimeout} for the owner's write lock; null
   * when the file or its batch table does not exist (no instance was ever made there).
   */
  public static SqliteGuest open(Path file, Duration busyTimeout) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Properties properties = new Properties();
    properties.setProperty("busy_timeout", String.valueOf(busyTimeout.toMillis()));
    Connection connection;
    try {
      connection = DriverManager.getConnection("jdbc:sqlite:" + file, properties);
    } catch (SQLException e) {
      throw failure(file, "open", e);
    }
    SqliteGuest guest = new SqliteGuest(file, connection);
    if (!guest.has("sluice_batch_instance")) {
      guest.close();
      return null;
    }
    return guest;
  }

  /**
   * Whether the file has the table {@code name}: one the owner's Sluice did not migrate yet (an
   * older one) may lack the newer batch tables.
   */
  public boolean has(String name) {
    return !query(
            "look for the table " + name,
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
            rs -> true,
            name)
        .isEmpty();
  }

  @Override
  public <T> List<T> query(String what, String sql, JdbcAccess.Row<T> row, Object... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      JdbcAccess.bind(statement, parameters);
      List<T> rows = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          rows.add(row.map(rs));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw failure(file, what, e);
    }
  }

  @Override
  public int update(String what, String sql, Object... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      JdbcAccess.bind(statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw failure(file, what, e);
    }
  }

  private static StoreException failure(Path file, String what, SQLException e) {
    return new StoreException(
        "Could not " + what + " in the SQLite store " + file + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // nothing was left uncommitted: each statement committed on its own
    }
  }
}
