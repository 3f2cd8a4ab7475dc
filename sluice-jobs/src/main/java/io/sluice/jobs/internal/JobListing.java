package io.sluice.jobs.internal;

import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobTypeStats;
import io.sluice.jobs.spi.NodeInfo;
import io.sluice.jobs.spi.WaitingJobs;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job store's listings for operators (the {@code sluice jobs} commands and the console): jobs
 * by state, type and id page, counts per type, per type and priority and per node, and the node
 * table. Apart from {@link JdbcJobStore} because nothing on an executor node's path uses them; the
 * same SQL serves SQLite and PostgreSQL. Both read on a read connection; the counts scan the
 * unfinished jobs, which is fine for a command and not meant for a hot loop.
 */
final class JobListing {

  private static final String STATS =
      "SELECT type, SUM(CASE WHEN state = 0 THEN 1 ELSE 0 END),"
          + " SUM(CASE WHEN state = 0 AND due_at <= ? THEN 1 ELSE 0 END),"
          + " SUM(CASE WHEN state = 1 THEN 1 ELSE 0 END),"
          + " SUM(CASE WHEN state = 2 THEN 1 ELSE 0 END),"
          + " MIN(CASE WHEN state = 0 AND due_at <= ? THEN due_at END)"
          + " FROM sluice_job GROUP BY type ORDER BY type";

  private static final String WAITING_BY_PRIORITY =
      "SELECT type, priority, COUNT(*) FROM sluice_job WHERE state = 0"
          + " GROUP BY type, priority ORDER BY type, priority DESC";

  private static final String RUNNING_BY_NODE =
      "SELECT owner, COUNT(*) FROM sluice_job WHERE state = 1 GROUP BY owner ORDER BY owner";

  private final JdbcAccess db;
  private final String nodes;

  /** The listings of {@code db}, whose clock reads as {@code now} (epoch milliseconds, in SQL). */
  JobListing(JdbcAccess db, String now) {
    this.db = db;
    this.nodes =
        "SELECT node, epoch, lease_expires - " + now + " FROM sluice_job_node ORDER BY node";
  }

  List<JobInfo> list(JobQuery query) {
    StringBuilder sql = new StringBuilder(JobSql.SELECT_JOB).append(" WHERE j.id > ?");
    List<Object> parameters = new ArrayList<>();
    parameters.add(query.afterId());
    if (query.state() != null) {
      sql.append(" AND j.state = ").append(state(query.state()));
    }
    if (query.type() != null) {
      sql.append(" AND j.type = ?");
      parameters.add(query.type());
    }
    sql.append(" ORDER BY j.id LIMIT ?");
    parameters.add(query.max());
    return db.query("list jobs", sql.toString(), JdbcJobStore::info, parameters.toArray());
  }

  List<JobTypeStats> stats(long now) {
    return db.query("count the jobs per type", STATS, JobListing::stats, now, now);
  }

  List<WaitingJobs> waitingByPriority() {
    return db.query(
        "count the waiting jobs per type and priority",
        WAITING_BY_PRIORITY,
        rs -> new WaitingJobs(rs.getString(1), rs.getInt(2), rs.getLong(3)));
  }

  Map<String, Long> runningByNode() {
    Map<String, Long> counts = new LinkedHashMap<>();
    db.query(
        "count the running jobs per node",
        RUNNING_BY_NODE,
        rs -> counts.put(rs.getString(1), rs.getLong(2)));
    return counts;
  }

  List<NodeInfo> nodes() {
    return db.query(
        "read the node table",
        nodes,
        rs -> new NodeInfo(rs.getString(1), rs.getLong(2), Duration.ofMillis(rs.getLong(3))));
  }

  private static JobTypeStats stats(ResultSet rs) throws SQLException {
    long oldest = rs.getLong(6);
    Instant oldestDue = rs.wasNull() ? null : Instant.ofEpochMilli(oldest);
    return new JobTypeStats(
        rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), oldestDue);
  }

  private static int state(JobQuery.State state) {
    return switch (state) {
      case WAITING -> JobSql.WAITING;
      case RUNNING -> JobSql.RUNNING;
      case INCIDENT -> JobSql.INCIDENT;
    };
  }
}
