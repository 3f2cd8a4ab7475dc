package io.sluice.jobs.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.sluice.jdbc.JdbcAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The job store's statements run and counted ({@code sluice.jobs.store.statements}). */
final class JobStatements {

  private final JdbcAccess db;
  private final LongAdder statements = new LongAdder();

  JobStatements(JdbcAccess db) {
    this.db = db;
    FunctionCounter.builder("sluice.jobs.store.statements", statements, LongAdder::sum)
        .description("SQL statements the job store ran (transaction control not counted)")
        .tag("store", db.type())
        .register(db.meterRegistry());
  }

  /** Counts a statement run another way (a batch). */
  void increment() {
    statements.increment();
  }

  int update(PreparedStatement statement) throws SQLException {
    statements.increment();
    return statement.executeUpdate();
  }

  ResultSet rows(PreparedStatement statement) throws SQLException {
    statements.increment();
    return statement.executeQuery();
  }

  <T> List<T> select(String what, String select, JdbcAccess.Row<T> row, Object... values) {
    statements.increment();
    return db.query(what, select, row, values);
  }

  /** The first column of the first row {@code statement} returns, or null when none. */
  Long firstLong(PreparedStatement statement) throws SQLException {
    try (ResultSet rs = rows(statement)) {
      return rs.next() ? rs.getLong(1) : null;
    }
  }
}
