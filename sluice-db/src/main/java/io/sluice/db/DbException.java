package io.sluice.db;

import io.sluice.core.SluiceException;

/**
 * A database operation that failed, naming the data source, the operation and the SQL state, with
 * an error type an error handler matches ({@code types: [CONNECTIVITY]} or {@code
 * [DB:CONNECTIVITY]}): {@value #CONNECTIVITY} (the database cannot be reached: SQL state class 08,
 * a connection cut by the server, no connection free within the pool's timeout), {@value
 * #CONSTRAINT} (class 23: a unique key, a foreign key, a check, a not-null), {@value
 * #BAD_PARAMETER} (a value JDBC cannot bind, a parameter the statement names and the message does
 * not give) and {@value #QUERY} (any other failure of the statement). The message never holds a
 * password.
 */
public final class DbException extends SluiceException {

  /** The database could not be reached, or the connection was lost. */
  public static final String CONNECTIVITY = "DB:CONNECTIVITY";

  /** The statement broke a constraint (SQL state class 23). */
  public static final String CONSTRAINT = "DB:CONSTRAINT";

  /** The statement failed otherwise. */
  public static final String QUERY = "DB:QUERY";

  /** A parameter's value could not be bound, or a named parameter has no value. */
  public static final String BAD_PARAMETER = "DB:BAD_PARAMETER";

  private final String dataSource;
  private final String operation;
  private final String sqlState;

  /**
   * An error of {@code errorType} in {@code operation} ({@code db-select}) on {@code dataSource},
   * with the driver's {@code sqlState} (null when it gave none).
   */
  public DbException(
      String errorType,
      String dataSource,
      String operation,
      String sqlState,
      String reason,
      Throwable cause) {
    super(
        errorType,
        operation
            + " on data source '"
            + dataSource
            + "' failed"
            + (sqlState == null ? "" : " (SQL state " + sqlState + ")")
            + ": "
            + reason,
        cause);
    this.dataSource = dataSource;
    this.operation = operation;
    this.sqlState = sqlState;
  }

  /** The data source's name. */
  public String dataSource() {
    return dataSource;
  }

  /** The operation that failed: {@code db-select}, {@code db-insert}... */
  public String operation() {
    return operation;
  }

  /** The SQL state the driver reported, or null. */
  public String sqlState() {
    return sqlState;
  }
}
