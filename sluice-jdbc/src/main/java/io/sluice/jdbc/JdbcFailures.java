package io.sluice.jdbc;

import io.sluice.core.SluiceException;
import io.sluice.core.store.StoreException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Turns what the driver throws into {@link StoreException}s that name the storage (its file, or its
 * URL with the password masked) and what was being done, and never carry the password.
 */
final class JdbcFailures {

  private final String where;
  private final String password;

  /** Failures of the storage at {@code where} (already masked), scrubbing {@code password}. */
  JdbcFailures(String where, String password) {
    this.where = where;
    this.password = password == null || password.isEmpty() ? null : password;
  }

  /** Where the storage is, as its messages name it. */
  String where() {
    return where;
  }

  /** {@code text} with the password, should a driver message quote it, masked. */
  String scrub(String text) {
    return password == null || text == null ? text : text.replace(password, "***");
  }

  /** The error for {@code what} failing with {@code cause}. */
  SluiceException translate(String what, Throwable cause) {
    if (cause instanceof SluiceException e) {
      return e;
    }
    return new StoreException(
        scrub("Could not " + what + " in " + where + ": " + rootMessage(cause)), cause);
  }

  /** The error for {@code what} asked of a closed storage. */
  StoreException closed(String what) {
    return new StoreException(
        "Could not " + what + ": the storage " + where + " is closed; open it again");
  }

  /** Whether {@code e} says the database could not be reached, rather than refusing the work. */
  static boolean isConnectionFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        // 08: connection exception; 57P: the server is shutting down or restarting.
        if (state.startsWith("08") || state.startsWith("57P")) {
          return true;
        }
      }
      if (t instanceof java.io.IOException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code e} says the transaction lost a conflict with another and was rolled back, so
   * that running it again may succeed: a deadlock's victim ({@code 40P01}) or a serialization
   * failure ({@code 40001}).
   */
  static boolean isLockConflict(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql
          && ("40P01".equals(sql.getSQLState()) || "40001".equals(sql.getSQLState()))) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** The message of the deepest cause that has one: the driver's own words. */
  static String rootMessage(Throwable e) {
    String message = e.toString();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        message = t.getMessage();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return message;
  }
}
