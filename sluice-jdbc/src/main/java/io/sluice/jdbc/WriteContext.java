package io.sluice.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The writer's connection as write work sees it: prepared statements kept for the life of the
 * connection (parsing once, not per write), and the queues the transaction gave messages to, so
 * their waiters are woken after the commit.
 */
final class WriteContext {

  /** Multi-row inserts make one statement per row count; enough for every count seen in use. */
  private static final int MAX_STATEMENTS = 64;

  private final Connection connection;
  private final Map<String, PreparedStatement> statements =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
          if (size() <= MAX_STATEMENTS) {
            return false;
          }
          closeQuietly(eldest.getValue());
          return true;
        }
      };
  private final Set<String> enqueued = new HashSet<>();
  private final Set<String> readied = new HashSet<>();

  WriteContext(Connection connection) {
    this.connection = connection;
  }

  /** The connection, inside the writer's transaction. */
  Connection connection() {
    return connection;
  }

  /** A prepared statement for {@code sql}, made once per connection. */
  PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  /** The number {@code sql} (one row, one column) gives with {@code parameters}. */
  long number(String sql, Object... parameters) throws SQLException {
    PreparedStatement statement = prepare(sql);
    JdbcStorage.bind(statement, parameters);
    try (ResultSet rs = statement.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * A multi-row statement: {@code head}, then {@code count} times {@code row} separated by commas,
   * then {@code tail}.
   */
  static String rows(String head, String row, int count, String tail) {
    StringBuilder sql =
        new StringBuilder(head.length() + count * (row.length() + 2) + tail.length());
    sql.append(head);
    for (int i = 0; i < count; i++) {
      sql.append(i == 0 ? "" : ", ").append(row);
    }
    return sql.append(tail).toString();
  }

  /** Notes that this transaction enqueued into {@code queue}: other nodes are told too. */
  void enqueued(String queue) {
    enqueued.add(queue);
    readied.add(queue);
  }

  /** Notes that this transaction made messages of {@code queue} ready again (nack, release). */
  void readied(String queue) {
    readied.add(queue);
  }

  Set<String> enqueuedQueues() {
    return enqueued;
  }

  Set<String> readiedQueues() {
    return readied;
  }

  void clearQueues() {
    enqueued.clear();
    readied.clear();
  }

  /** Closes the statements (the connection is the writer's to close). */
  void closeStatements() {
    statements.values().forEach(WriteContext::closeQuietly);
    statements.clear();
  }

  private static void closeQuietly(PreparedStatement statement) {
    try {
      statement.close();
    } catch (SQLException e) {
      // Closing a statement of a connection being dropped: nothing left to release.
    }
  }
}
