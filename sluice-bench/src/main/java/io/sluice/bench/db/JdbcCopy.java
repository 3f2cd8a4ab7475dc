package io.sluice.bench.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The floor of {@link TableCopyBenchmark}: one cursor over the source ({@code fetchSize} rows per
 * round trip), the transformation, and inserts in JDBC batches of {@code batchSize} on a second
 * connection, committed after each batch. No framework, no store, no thread but the caller's.
 */
final class JdbcCopy {

  private JdbcCopy() {}

  /** Copies the source to the target; returns the rows written. */
  static long copy(int fetchSize, int batchSize) throws SQLException {
    long written = 0;
    try (Connection reading = CopyTables.connect();
        Connection writing = CopyTables.connect()) {
      reading.setAutoCommit(false); // PostgreSQL reads by cursor only in a transaction
      writing.setAutoCommit(false);
      try (PreparedStatement select = reading.prepareStatement(CopyTables.SELECT);
          PreparedStatement insert = writing.prepareStatement(CopyTables.INSERT_POSITIONAL)) {
        select.setFetchSize(fetchSize);
        try (ResultSet rows = select.executeQuery()) {
          int pending = 0;
          while (rows.next()) {
            CopyTables.bind(insert, CopyTables.transform(CopyTables.order(rows)));
            insert.addBatch();
            if (++pending == batchSize) {
              written += sum(insert.executeBatch());
              writing.commit();
              pending = 0;
            }
          }
          if (pending > 0) {
            written += sum(insert.executeBatch());
            writing.commit();
          }
        }
      }
      reading.rollback();
    }
    return written;
  }

  private static long sum(int[] counts) {
    long sum = 0;
    for (int count : counts) {
      sum += count;
    }
    return sum;
  }
}
