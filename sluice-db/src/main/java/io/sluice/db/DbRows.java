package io.sluice.db;

import io.sluice.core.transaction.Transaction;
import io.sluice.db.internal.Rows;
import java.lang.ref.Cleaner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The payload of a streaming {@code db-select}: its rows, read from the database while they are
 * iterated ({@code fetchSize} at a time), so that a result of any size is gone through in constant
 * memory ({@code foreach} does). It holds a connection of the pool until it reaches the last row,
 * fails, or is closed, whichever comes first; whoever stops iterating early must close it ({@code
 * foreach} does). One that is dropped unclosed gives its connection back when it is collected.
 * Inside a {@code try} with a transaction on its data source it reads on the transaction's
 * connection, taking its turn for each fetch, and stays readable until the scope ends.
 */
public final class DbRows implements Iterator<Map<String, Object>>, AutoCloseable {

  private static final Cleaner CLEANER = Cleaner.create();

  private final Open open;
  private final Cleaner.Cleanable cleanable;
  private final Function<SQLException, RuntimeException> failure;
  private final Rows rows;
  private Map<String, Object> next;
  private boolean done;

  /** What must be closed, kept apart from the iterator so that the cleaner does not hold it. */
  private record Open(
      Connection connection,
      Transaction transaction,
      PreparedStatement statement,
      ResultSet results)
      implements Runnable {
    @Override
    public void run() {
      if (transaction != null) {
        try (statement;
            results) {
          // The connection is the transaction's: its scope ends it.
        } catch (SQLException ignored) {
          // Closed with the transaction's connection already.
        }
        return;
      }
      try (connection;
          statement;
          results) {
        if (!connection.getAutoCommit()) {
          connection.rollback(); // a read: nothing to keep; ends the cursor's transaction
          connection.setAutoCommit(true);
        }
      } catch (SQLException ignored) {
        // The pool checks the connection before it hands it out again.
      }
    }
  }

  DbRows(
      Connection connection,
      PreparedStatement statement,
      ResultSet results,
      Function<SQLException, RuntimeException> failure)
      throws SQLException {
    this(new Open(connection, null, statement, results), failure);
  }

  /** Rows read on the connection of {@code transaction}, which stays open when they end. */
  DbRows(
      Transaction transaction,
      PreparedStatement statement,
      ResultSet results,
      Function<SQLException, RuntimeException> failure)
      throws SQLException {
    this(new Open(null, transaction, statement, results), failure);
  }

  private DbRows(Open open, Function<SQLException, RuntimeException> failure) throws SQLException {
    this.open = open;
    this.cleanable = CLEANER.register(this, open);
    this.failure = failure;
    this.rows = new Rows(open.results());
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      try {
        if (open.transaction == null ? open.results.next() : nextInTransaction()) {
          next = rows.row(open.results);
        } else {
          close();
        }
      } catch (SQLException e) {
        close();
        throw failure.apply(e);
      }
    }
    return next != null;
  }

  /** The next row's fetch, in its turn among the transaction's operations. */
  private boolean nextInTransaction() throws SQLException {
    try {
      return open.transaction.join(Connection.class, connection -> open.results.next());
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for the transaction's connection", e);
    } catch (Exception e) {
      throw new SQLException(e);
    }
  }

  @Override
  public Map<String, Object> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Map<String, Object> row = next;
    next = null;
    return row;
  }

  /** Gives the connection back; iterating afterwards finds no more rows. Idempotent. */
  @Override
  public void close() {
    done = true;
    next = null;
    cleanable.clean();
  }
}
