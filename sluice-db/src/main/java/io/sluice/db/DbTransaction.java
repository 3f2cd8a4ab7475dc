package io.sluice.db;

import io.sluice.core.transaction.Transaction;
import io.sluice.db.internal.SqlErrors;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteConnectionConfig;

/**
 * A transaction on a data source: one connection of its pool, taken when the first operation joins
 * and set to autocommit off, shared by every operation of the scope one at a time (a {@link
 * ReentrantLock}, which parks a virtual thread without pinning its carrier), committed or rolled
 * back once and then given back to the pool.
 */
final class DbTransaction implements Transaction {

  /** The error type of an operation that joins a transaction after its scope ended it. */
  static final String ENDED = "DB:TRANSACTION_ENDED";

  private static final Logger LOG = LoggerFactory.getLogger(DbTransaction.class);

  private final DataSourceResource resource;
  private final DataSourceResource.Outcomes outcomes;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Runnable> afterCommit = new ArrayList<>(0);
  private Connection connection;
  private volatile String end;

  /** The first statement that failed inside the transaction, or null. */
  private SQLException failedStatement;

  DbTransaction(DataSourceResource resource, DataSourceResource.Outcomes outcomes) {
    this.resource = resource;
    this.outcomes = outcomes;
  }

  @Override
  public String resourceName() {
    return resource.name();
  }

  @Override
  public String database() {
    return resource.database();
  }

  @Override
  public <C, T> T join(Class<C> connectionType, Work<C, T> work) throws Exception {
    if (connectionType != Connection.class) {
      throw new IllegalArgumentException(
          "a data source's transaction gives a java.sql.Connection, not a " + connectionType);
    }
    lock.lockInterruptibly();
    try {
      if (end != null) {
        throw endedError();
      }
      if (connection == null) {
        connection = open();
      }
      return work.run(connectionType.cast(connection));
    } catch (SQLException e) {
      if (failedStatement == null) {
        failedStatement = e;
      }
      throw e;
    } finally {
      lock.unlock();
    }
  }

  private Connection open() throws SQLException {
    Connection opened = resource.connection();
    try {
      if (opened.isWrapperFor(SQLiteConnection.class)) {
        beginImmediately(opened);
      } else {
        opened.setAutoCommit(false);
      }
      return opened;
    } catch (SQLException | RuntimeException e) {
      try (opened) {
        throw e;
      }
    }
  }

  /**
   * On SQLite the transaction begins with {@code BEGIN IMMEDIATE}: it takes the file's write lock
   * at once (waiting for another writer up to the busy timeout), so a scope that reads before it
   * writes cannot fail at its write because another connection wrote in between ({@code
   * SQLITE_BUSY}, which no wait cures). The driver begins the next transaction when this one ends
   * (a commit or a rollback begins another while auto-commit is off): that one is deferred again,
   * so it takes no lock between the end and the connection's return to the pool.
   */
  private static void beginImmediately(Connection pooled) throws SQLException {
    SQLiteConnectionConfig config = pooled.unwrap(SQLiteConnection.class).getConnectionConfig();
    SQLiteConfig.TransactionMode before = config.getTransactionMode();
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    try {
      // Through the pool's proxy, which then puts auto-commit back when the connection returns.
      pooled.setAutoCommit(false);
    } finally {
      config.setTransactionMode(before);
    }
  }

  private DbException endedError() {
    return new DbException(
        ENDED,
        resource.name(),
        "transaction",
        null,
        "it was "
            + end
            + " when its try scope ended; a message that outlives the scope (an async inside it)"
            + " cannot use it: give that work a try of its own",
        null);
  }

  @Override
  public void afterCommit(Runnable callback) {
    lock.lock();
    try {
      if (end != null) {
        throw endedError();
      }
      afterCommit.add(callback);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void commit() {
    lock.lock();
    try {
      if (end != null) {
        return;
      }
      end = "committed";
      if (connection != null) {
        try {
          refuseAnAbortedCommit();
          connection.commit();
          outcomes.committed().increment();
        } catch (SQLException e) {
          end = "rolled back";
          rollbackQuietly();
          outcomes.commitFailed().increment();
          throw SqlErrors.translate(e, resource.name(), "commit", resource.secrets());
        } finally {
          closeQuietly();
        }
      } else {
        outcomes.committed().increment();
      }
    } finally {
      lock.unlock();
    }
    for (Runnable callback : afterCommit) {
      try {
        callback.run();
      } catch (RuntimeException e) {
        LOG.warn("An after-commit action of data source '{}' failed", resource.name(), e);
      }
    }
  }

  /**
   * PostgreSQL aborts a transaction at its first failed statement, and its driver answers a commit
   * of it as if it had committed (the server rolled it back): a scope that caught such an error
   * inside and went on would think its rows kept. It fails instead, naming the statement's error.
   */
  private void refuseAnAbortedCommit() throws SQLException {
    if (failedStatement != null
        && connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
      throw new SQLException(
          "a statement inside the scope failed ("
              + failedStatement.getMessage()
              + "), which aborted the transaction: PostgreSQL rolled it back, nothing was"
              + " committed",
          "25P02",
          failedStatement);
    }
  }

  @Override
  public void rollback() {
    lock.lock();
    try {
      if (end != null) {
        return;
      }
      end = "rolled back";
      outcomes.rolledBack().increment(); // before the connection goes back: tests wait for that
      if (connection != null) {
        rollbackQuietly();
        closeQuietly();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean ended() {
    return end != null;
  }

  private void rollbackQuietly() {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // A broken connection: the database drops the transaction with it, and the pool checks it
      // before it hands it out again.
      LOG.debug("Rolling back on data source '{}' failed", resource.name(), e);
    }
  }

  private void closeQuietly() {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("Giving a connection of data source '{}' back failed", resource.name(), e);
    } finally {
      connection = null;
    }
  }

  @Override
  public String toString() {
    return "transaction on data source '" + resource.name() + "'";
  }
}
