package io.sluice.jobs.internal;

import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The job history's reads and its pruning (its entries are written by the completions and failures
 * themselves, in {@link JobSql}): table {@code sluice_job_history}, made by migration V10. Apart
 * from {@link JdbcJobStore} because no claim or completion uses them; the same SQL serves SQLite
 * and PostgreSQL.
 */
final class JobHistory {

  private static final String SELECT =
      "SELECT id, job_id, type, state, priority, unique_key, exclusive_key, attempts, error, node,"
          + " created_at, finished_at, payload_text FROM sluice_job_history WHERE id < ?";

  /**
   * Deletes, of the oldest entries by id (a bounded number), those that ended before a time.
   * Parameters: max, finished before. Ids grow in the order entries are written, so the oldest by
   * id are the oldest by end, up to the commits of concurrent nodes (milliseconds apart): reading
   * them from the primary key spares every completion the write of an index on {@code finished_at},
   * and a pass with nothing to delete reads {@code max} rows, not the table.
   */
  private static final String PRUNE =
      "DELETE FROM sluice_job_history WHERE id IN (SELECT id FROM (SELECT id, finished_at FROM"
          + " sluice_job_history ORDER BY id LIMIT ?) oldest WHERE finished_at < ?)";

  private final JdbcAccess db;
  private final JobStatements counted;

  JobHistory(JdbcAccess db, JobStatements counted) {
    this.db = db;
    this.counted = counted;
  }

  /**
   * A payload as the history keeps it for its search: a text as it is, bytes read as UTF-8, any
   * other value as {@link String#valueOf} (a map as {@code {key=value}}), cut to {@link
   * FinishedJob#PAYLOAD_TEXT_LENGTH} characters, a zero character as U+FFFD.
   */
  static String text(Object payload) {
    String text =
        switch (payload) {
          case null -> null;
          case byte[] bytes ->
              new String(
                  bytes,
                  0,
                  Math.min(bytes.length, FinishedJob.PAYLOAD_TEXT_LENGTH * 4),
                  StandardCharsets.UTF_8);
          default -> String.valueOf(payload);
        };
    if (text == null) {
      return null;
    }
    // PostgreSQL's text refuses a zero character (binary payloads have them): shown as U+FFFD.
    String cut =
        text.length() <= FinishedJob.PAYLOAD_TEXT_LENGTH
            ? text
            : text.substring(0, FinishedJob.PAYLOAD_TEXT_LENGTH);
    return cut.replace('\u0000', '\uFFFD');
  }

  List<FinishedJob> history(HistoryQuery query) {
    StringBuilder sql = new StringBuilder(SELECT);
    List<Object> parameters = new ArrayList<>();
    parameters.add(query.beforeId() == 0 ? Long.MAX_VALUE : query.beforeId());
    if (query.type() != null) {
      sql.append(" AND type = ?");
      parameters.add(query.type());
    }
    if (query.state() != null) {
      sql.append(" AND state = ")
          .append(query.state() == FinishedJob.State.COMPLETED ? JobSql.COMPLETED : JobSql.FAILED);
    }
    if (query.text() != null) {
      // LIKE with its wildcards escaped, on both sides lower-cased: a substring, case ignored.
      sql.append(
          " AND (LOWER(payload_text) LIKE ? ESCAPE '\\' OR LOWER(error) LIKE ? ESCAPE '\\')");
      String pattern = "%" + escape(query.text().toLowerCase(Locale.ROOT)) + "%";
      parameters.add(pattern);
      parameters.add(pattern);
    }
    sql.append(" ORDER BY id DESC LIMIT ?");
    parameters.add(query.max());
    return counted.select(
        "read the job history", sql.toString(), JobHistory::entry, parameters.toArray());
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }

  private static FinishedJob entry(ResultSet rs) throws SQLException {
    return new FinishedJob(
        rs.getLong(1),
        rs.getLong(2),
        rs.getString(3),
        rs.getInt(4) == JobSql.COMPLETED ? FinishedJob.State.COMPLETED : FinishedJob.State.FAILED,
        rs.getInt(5),
        rs.getString(6),
        rs.getString(7),
        rs.getInt(8),
        rs.getString(9),
        rs.getString(10),
        Instant.ofEpochMilli(rs.getLong(11)),
        Instant.ofEpochMilli(rs.getLong(12)),
        rs.getString(13));
  }

  int prune(Instant finishedBefore, int max) {
    return db.write(
        "prune the job history",
        tx -> {
          PreparedStatement prune = tx.prepare(PRUNE);
          JdbcAccess.bind(prune, max, finishedBefore.toEpochMilli());
          return counted.update(prune);
        });
  }
}
