package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.core.expression.Expression;
import io.sluice.db.internal.Binding;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code db-bulk}: runs one statement for each element of a collection (the payload, or what {@code
 * collection} gives: a list, an array, an iterator such as a streaming select's rows), its
 * parameters evaluated on each element as the payload (or, when no {@code parameters} are given,
 * taken by name from each element, a map), sent in JDBC batches of {@code batchSize}: one round
 * trip per batch. Every batch runs in one transaction, committed after the last, so a failure
 * leaves nothing written. The result is the list of the counts of rows each element changed (the
 * driver's -2, {@code SUCCESS_NO_INFO}, where it does not tell).
 */
public final class DbBulkProcessor extends DbOperation {

  /** The elements per batch unless {@code batchSize} says. */
  public static final int DEFAULT_BATCH_SIZE = 500;

  /** The upper bound of {@code batchSize}. */
  public static final int MAX_BATCH_SIZE = 100_000;

  private final Expression collection;
  private final int batchSize;

  /**
   * A bulk of {@code statement} over what {@code collection} gives (null: the payload), {@code
   * batchSize} elements per batch (1 to {@value #MAX_BATCH_SIZE}).
   */
  public DbBulkProcessor(
      DataSources dataSources, DbStatement statement, Expression collection, int batchSize) {
    super("db-bulk", dataSources, statement, Set.of());
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException("batchSize must be from 1 to " + MAX_BATCH_SIZE);
    }
    this.collection = collection;
    this.batchSize = batchSize;
  }

  @Override
  public Message process(Message message) {
    Object source = collection == null ? message.payload() : collection.evaluate(message);
    Iterator<?> elements = elements(source);
    try {
      return withConnection(
          message,
          (connection, joined) -> result(message, run(message, elements, connection, joined)));
    } finally {
      if (source instanceof AutoCloseable closeable) { // a streaming select's rows, gone through
        closeQuietly(closeable);
      }
    }
  }

  /**
   * Runs the batches: in a transaction of its own, committed after the last, or inside the scope's
   * ({@code joined}), which commits or rolls back with the scope.
   */
  private List<Integer> run(
      Message message, Iterator<?> elements, Connection connection, boolean joined)
      throws SQLException {
    List<Integer> counts = new ArrayList<>();
    if (!joined) {
      connection.setAutoCommit(false);
    }
    try (PreparedStatement prepared = connection.prepareStatement(statement.sql().jdbcSql())) {
      int pending = 0;
      while (elements.hasNext()) {
        bind(prepared, values(message, elements.next()));
        prepared.addBatch();
        if (++pending == batchSize) {
          add(counts, prepared.executeBatch());
          pending = 0;
        }
      }
      if (pending > 0) {
        add(counts, prepared.executeBatch());
      }
      if (!joined) {
        connection.commit();
      }
    } catch (SQLException | RuntimeException e) {
      if (!joined) {
        rollback(connection);
      }
      throw e;
    }
    // The pool sets autocommit back when it takes the connection back.
    return counts;
  }

  /** The parameter values of one element. */
  private List<Object> values(Message message, Object element) {
    if (statement.parameters() == null) {
      return Binding.fromMap(statement.sql().positions(), element, dataSourceName(), operation());
    }
    return values(message.withPayload(element));
  }

  private static Iterator<?> elements(Object source) {
    return switch (source) {
      case null -> List.of().iterator();
      case Iterator<?> iterator -> iterator;
      case Iterable<?> iterable -> iterable.iterator();
      case Object[] array -> Arrays.asList(array).iterator();
      case Map<?, ?> map -> List.of(map).iterator();
      default -> List.of(source).iterator();
    };
  }

  private static void add(List<Integer> counts, int[] batch) {
    for (int count : batch) {
      counts.add(count);
    }
  }

  private static void rollback(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException ignored) {
      // The connection is broken; the pool replaces it, and nothing was committed.
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // Nothing more is read from it either way.
    }
  }

  /** The elements per batch. */
  public int batchSize() {
    return batchSize;
  }
}
