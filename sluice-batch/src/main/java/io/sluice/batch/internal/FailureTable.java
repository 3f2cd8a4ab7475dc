package io.sluice.batch.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.batch.BatchFailure;
import io.sluice.batch.BatchRecord;
import io.sluice.jdbc.JdbcAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The failed records of batch instances ({@code sluice_batch_failure}, migration V11): written in
 * the block store's commits that add them to an instance's failed count, so the rows and the count
 * never disagree after a crash; read, page by page in input order, by the process running the
 * instances or by another one ({@link SqliteGuest}).
 */
public final class FailureTable {

  /** The table's name: a file no Sluice since V11 opened has none (and no failures kept). */
  public static final String TABLE = "sluice_batch_failure";

  private static final String COLUMNS =
      "SELECT position, step, error, payload, failed_at FROM sluice_batch_failure";

  private final InstanceTable.Sql sql;

  /** The table, reached through {@code sql}. */
  public FailureTable(InstanceTable.Sql sql) {
    this.sql = sql;
  }

  /**
   * Keeps {@code failed} records of {@code instance} within its bound ({@code
   * keep_failed_records}), in the transaction {@code tx}, which must have updated the instance's
   * row already: on PostgreSQL that row's lock keeps two commits from both taking the last room.
   */
  static void keep(JdbcAccess.Transaction tx, long instance, List<BatchRecord> failed, long now)
      throws SQLException {
    if (failed.isEmpty()) {
      return;
    }
    PreparedStatement room =
        tx.prepare(
            "SELECT keep_failed_records - failures_kept FROM sluice_batch_instance WHERE id = ?");
    bind(room, instance);
    long free;
    try (ResultSet rs = room.executeQuery()) {
      free = rs.next() ? rs.getLong(1) : 0;
    }
    int kept = (int) Math.max(0, Math.min(free, failed.size()));
    if (kept == 0) {
      return;
    }
    PreparedStatement insert =
        tx.prepare(
            "INSERT INTO sluice_batch_failure (instance_id, position, step, error, payload,"
                + " failed_at) VALUES (?, ?, ?, ?, ?, ?)");
    for (BatchRecord record : failed.subList(0, kept)) {
      bind(
          insert,
          instance,
          record.position(),
          record.failedAt(),
          cut(String.valueOf(record.error()), BatchFailure.ERROR_CHARS),
          record.payload() == null
              ? null
              : cut(String.valueOf(record.payload()), BatchFailure.PAYLOAD_CHARS),
          now);
      insert.addBatch();
    }
    insert.executeBatch();
    PreparedStatement count =
        tx.prepare(
            "UPDATE sluice_batch_instance SET failures_kept = failures_kept + ? WHERE id = ?");
    bind(count, (long) kept, instance);
    count.executeUpdate();
  }

  /** {@code text}, cut to {@code max} characters with an ellipsis when longer. */
  static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  /**
   * Up to {@code max} kept failed records of {@code instance} from input position {@code
   * fromPosition} on, in input order; the rows of one position come together in one page (so a page
   * may hold more than {@code max} when several share its last position: the rows standing for
   * unreadable blocks, at 0), so that the next page, from the position after the last one shown,
   * misses none.
   */
  public List<BatchFailure> from(long instance, long fromPosition, int max) {
    List<BatchFailure> page =
        new ArrayList<>(
            sql.query(
                "read the failed records of batch instance " + instance,
                COLUMNS + " WHERE instance_id = ? AND position >= ? ORDER BY position LIMIT ?",
                FailureTable::failure,
                instance,
                fromPosition,
                (long) max));
    if (page.size() == max && max > 0) {
      long last = page.getLast().position();
      page.removeIf(f -> f.position() == last);
      page.addAll(
          sql.query(
              "read the failed records of batch instance " + instance + " at " + last,
              COLUMNS + " WHERE instance_id = ? AND position = ? ORDER BY failed_at",
              FailureTable::failure,
              instance,
              last));
    }
    return page;
  }

  private static BatchFailure failure(ResultSet rs) throws SQLException {
    return new BatchFailure(
        rs.getLong(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        Instant.ofEpochMilli(rs.getLong(5)));
  }
}
