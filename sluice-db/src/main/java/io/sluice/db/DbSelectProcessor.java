package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.core.transaction.Transaction;
import io.sluice.db.internal.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code db-select}: runs a query with its named parameters bound and gives its rows, each a map by
 * column label: a list, or with {@code streaming} a {@link DbRows} iterator reading them while they
 * are gone through ({@code foreach}), holding a connection until it ends or is closed.
 */
public final class DbSelectProcessor extends DbOperation {

  /** The rows fetched per round trip of a streaming select unless {@code fetchSize} says. */
  public static final int DEFAULT_FETCH_SIZE = 1000;

  /** The upper bound of {@code fetchSize} and {@code maxRows}. */
  public static final int MAX_ROWS = 1_000_000_000;

  private final boolean streaming;
  private final int fetchSize;
  private final int maxRows;
  private final String localTimestamp;

  /**
   * A select of {@code statement} on {@code dataSources}: {@code maxRows} rows at most (0: all),
   * {@code fetchSize} per round trip (0: the driver's own), a lazy iterator when {@code streaming}.
   */
  public DbSelectProcessor(
      DataSources dataSources,
      DbStatement statement,
      boolean streaming,
      int fetchSize,
      int maxRows) {
    this("db-select", dataSources, statement, streaming, fetchSize, maxRows, null);
  }

  /**
   * As above, its errors naming {@code operation} (a {@code db-poll}'s query), the column {@code
   * localTimestamp} (a watermark) read as a {@code LocalDateTime} when it is a timestamp without
   * time zone (see {@link Rows#Rows(ResultSet, String)}); null: none.
   */
  DbSelectProcessor(
      String operation,
      DataSources dataSources,
      DbStatement statement,
      boolean streaming,
      int fetchSize,
      int maxRows,
      String localTimestamp) {
    super(operation, dataSources, statement, Set.of());
    if (fetchSize < 0 || fetchSize > MAX_ROWS) {
      throw new IllegalArgumentException("fetchSize must be from 0 to " + MAX_ROWS);
    }
    if (maxRows < 0 || maxRows > MAX_ROWS) {
      throw new IllegalArgumentException("maxRows must be from 0 to " + MAX_ROWS);
    }
    this.streaming = streaming;
    this.fetchSize = fetchSize;
    this.maxRows = maxRows;
    this.localTimestamp = localTimestamp;
  }

  /** A select of every row, as a list. */
  public static DbSelectProcessor of(DataSources dataSources, DbStatement statement) {
    return new DbSelectProcessor(dataSources, statement, false, 0, 0);
  }

  @Override
  public Message process(Message message) {
    List<Object> values = values(message);
    Transaction transaction = transactionOf(message);
    if (transaction != null) {
      return withConnection(
          message, (connection, joined) -> select(message, values, connection, transaction));
    }
    Connection connection = connection();
    PreparedStatement prepared = null;
    try {
      if (streaming) {
        // PostgreSQL reads by cursor (fetchSize at a time) only outside autocommit.
        connection.setAutoCommit(false);
      }
      prepared = connection.prepareStatement(statement.sql().jdbcSql());
      ResultSet results = query(prepared, values);
      if (streaming) {
        return result(message, new DbRows(connection, prepared, results, this::failure));
      }
      try (connection;
          PreparedStatement closing = prepared;
          results) {
        return result(message, list(results));
      }
    } catch (SQLException e) {
      closeQuietly(connection, prepared);
      throw failure(e);
    } catch (RuntimeException e) {
      closeQuietly(connection, prepared);
      throw e;
    }
  }

  /**
   * The select on a transaction's connection, which stays open: streamed rows are read on it, one
   * fetch at a time among the scope's other operations, until the scope ends.
   */
  private Message select(
      Message message, List<Object> values, Connection connection, Transaction transaction)
      throws SQLException {
    PreparedStatement prepared = connection.prepareStatement(statement.sql().jdbcSql());
    try {
      ResultSet results = query(prepared, values);
      if (streaming) {
        return result(message, new DbRows(transaction, prepared, results, this::failure));
      }
      try (PreparedStatement closing = prepared;
          results) {
        return result(message, list(results));
      }
    } catch (SQLException | RuntimeException e) {
      prepared.close();
      throw e;
    }
  }

  /** Runs the query of {@code prepared} with {@code values}, its row limit and fetch size set. */
  private ResultSet query(PreparedStatement prepared, List<Object> values) throws SQLException {
    prepared.setMaxRows(maxRows);
    if (fetchSize > 0) {
      prepared.setFetchSize(fetchSize);
    }
    bind(prepared, values);
    return prepared.executeQuery();
  }

  /** Every row, the watermark column (if any) read as the poll keeps it. */
  private List<Map<String, Object>> list(ResultSet results) throws SQLException {
    Rows rows = new Rows(results, localTimestamp);
    List<Map<String, Object>> list = new ArrayList<>();
    while (results.next()) {
      list.add(rows.row(results));
    }
    return list;
  }

  private static void closeQuietly(Connection connection, PreparedStatement prepared) {
    try (connection;
        prepared) {
      if (!connection.getAutoCommit()) {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    } catch (SQLException ignored) {
      // The pool checks the connection before handing it out again.
    }
  }

  /** Whether the rows are streamed. */
  public boolean streaming() {
    return streaming;
  }

  /** The rows fetched per round trip; 0: the driver's own. */
  public int fetchSize() {
    return fetchSize;
  }

  /** The most rows read; 0: all. */
  public int maxRows() {
    return maxRows;
  }
}
