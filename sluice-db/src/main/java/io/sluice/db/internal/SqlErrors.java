package io.sluice.db.internal;

import io.sluice.db.DbException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Set;

/** Turns the drivers' {@link SQLException}s into {@link DbException}s of the right error type. */
public final class SqlErrors {

  /**
   * PostgreSQL's states of a server that went away: admin_shutdown ({@code pg_terminate_backend}),
   * crash_shutdown, cannot_connect_now.
   */
  private static final Set<String> SERVER_GONE = Set.of("57P01", "57P02", "57P03");

  /** SQLite's primary result code of a broken constraint (its driver gives no SQL state). */
  private static final int SQLITE_CONSTRAINT = 19;

  private SqlErrors() {}

  /** {@code e}, raised by {@code operation} on {@code dataSource}, as the error a handler takes. */
  public static DbException translate(
      SQLException e, String dataSource, String operation, List<String> secrets) {
    String state = state(e);
    String type;
    if (connectivity(e)) {
      type = DbException.CONNECTIVITY;
    } else if (state != null && state.startsWith("23") || sqliteConstraint(e)) {
      type = DbException.CONSTRAINT;
    } else if (state != null && state.startsWith("07")) {
      type = DbException.BAD_PARAMETER;
    } else {
      type = DbException.QUERY;
    }
    String reason = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    Throwable cause = e.getCause();
    if (cause != null && cause.getMessage() != null && !reason.contains(cause.getMessage())) {
      reason += " (" + cause.getMessage() + ")"; // the pool's timeout says why it had no connection
    }
    if (type.equals(DbException.CONNECTIVITY)) {
      reason += "; the call may succeed once the database is reachable again";
    }
    return new DbException(type, dataSource, operation, state, mask(reason, secrets), e);
  }

  /**
   * {@code text} with each of {@code secrets} (a data source's password, one in its URL) masked.
   */
  public static String mask(String text, List<String> secrets) {
    String masked = text;
    for (String secret : secrets) {
      if (secret != null && !secret.isEmpty()) {
        masked = masked.replace(secret, "******");
      }
    }
    return masked;
  }

  /** The first SQL state along the chain of causes. */
  private static String state(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
    }
    return null;
  }

  private static boolean connectivity(SQLException e) {
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

  private static boolean sqliteConstraint(SQLException e) {
    return e.getClass().getName().equals("org.sqlite.SQLiteException")
        && (e.getErrorCode() & 0xff) == SQLITE_CONSTRAINT;
  }
}
