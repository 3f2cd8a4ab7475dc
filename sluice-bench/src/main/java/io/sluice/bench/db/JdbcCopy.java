package io.sluice.bench.db;

import io.sluice.bench.db.CopyTables.CopiedOrder;
import io.sluice.bench.db.CopyTables.Order;
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
          PreparedStatement insert =
              writing.prepareStatement(CopyTables.INSERT + "(?, ?, ?, ?, ?, ?, ?)")) {
        select.setFetchSize(fetchSize);
        try (ResultSet rows = select.executeQuery()) {
          int pending = 0;
          while (rows.next()) {
            CopiedOrder copied =
                CopyTables.transform(
                    new Order(
                        rows.getLong(1),
                        rows.getString(2),
                        rows.getString(3),
                        rows.getBigDecimal(4),
                        rows.getTimestamp(5),
                        rows.getString(6)));
            insert.setLong(1, copied.id());
            insert.setString(2, copied.customer());
            insert.setString(3, copied.country());
            insert.setBigDecimal(4, copied.amount());
            insert.setTimestamp(5, copied.created());
            insert.setString(6, copied.note());
            insert.setBigDecimal(7, copied.total());
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
