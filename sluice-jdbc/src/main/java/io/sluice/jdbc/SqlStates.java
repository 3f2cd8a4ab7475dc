package io.sluice.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * What the drivers' errors say about the store's database: whether it is out of reach, or broke a
 * write off that may be made again (a batch run on a shared store pauses through either). The db
 * connector, which must not use the store's module, reads the same states for its {@code
 * DB:CONNECTIVITY} in its own {@code SqlErrors}.
 */
public final class SqlStates {

  /**
   * PostgreSQL's states of a server that went away: admin_shutdown ({@code pg_terminate_backend}),
   * crash_shutdown, cannot_connect_now.
   */
  private static final Set<String> SERVER_GONE = Set.of("57P01", "57P02", "57P03");

  private SqlStates() {}

  /**
   * States of a write the database broke off but would take again: a serialization failure, a
   * deadlock, a session ended for idling in its transaction.
   */
  private static final Set<String> TRY_AGAIN = Set.of("40001", "40P01", "25P03");

  /**
   * Whether what failed with {@code e} may succeed when made again as it was: the database out of
   * reach ({@link #unreachable}), or a write it broke off (a serialization failure, a deadlock, a
   * session ended for idling in a transaction); not a statement it refused.
   */
  public static boolean retryable(Throwable e) {
    if (unreachable(e)) {
      return true;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && TRY_AGAIN.contains(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code e}, or a cause of it, says the database cannot be reached: a connection error
   * (SQL state class 08, a pool with no connection to give, a broken connection) or a server shut
   * down; not a statement the database refused.
   */
  public static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof SQLRecoverableException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        if (state.startsWith("08") || SERVER_GONE.contains(state)) {
          return true;
        }
      }
    }
    return false;
  }
}
