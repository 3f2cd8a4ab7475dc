package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.core.store.Require;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.JobStore.FailOutcome;
import io.sluice.jobs.spi.NodeLease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A node's writes of its jobs' outcomes, each fenced by its lease: complete, fail, incident,
 * release.
 */
final class FencedOutcomes {

  private final JdbcAccess db;
  private final JobSql sql;
  private final Clock clock;
  private final long aging;
  private final JobStatements counted;

  FencedOutcomes(JdbcAccess db, JobSql sql, Clock clock, long aging, JobStatements counted) {
    this.db = db;
    this.sql = sql;
    this.clock = clock;
    this.aging = aging;
    this.counted = counted;
  }

  Set<Long> complete(NodeLease lease, Collection<Long> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return db.write(
        "complete " + ids.size() + " job(s) of node " + lease,
        tx -> deleteHeld(tx::prepare, ids, lease));
  }

  /**
   * Deletes the jobs of {@code ids} that {@code lease} holds, with their payloads and errors, and
   * writes their history entries when the store keeps history.
   */
  Set<Long> deleteHeld(Statements statements, Collection<Long> ids, NodeLease lease)
      throws SQLException {
    String list = db.ids(ids);
    long now = clock.millis();
    if (sql.history() && !sql.oneStatement()) {
      PreparedStatement entries = statements.get(sql.historyOfHeld());
      bind(entries, now, list, lease.node(), lease.epoch());
      counted.update(entries);
    }
    PreparedStatement delete = statements.get(sql.complete());
    if (sql.history() && sql.oneStatement()) {
      bind(delete, list, lease.node(), lease.epoch(), now);
    } else {
      bind(delete, list, lease.node(), lease.epoch());
    }
    Set<Long> done = new LinkedHashSet<>();
    try (ResultSet rs = counted.rows(delete)) {
      while (rs.next()) {
        done.add(rs.getLong(1));
      }
    }
    if (!done.isEmpty() && !sql.oneStatement()) {
      list = db.ids(done);
      PreparedStatement payloads = statements.get(sql.deletePayloads());
      payloads.setString(1, list);
      counted.update(payloads);
      PreparedStatement errors = statements.get(sql.deleteErrors());
      errors.setString(1, list);
      counted.update(errors);
    }
    return done;
  }

  FailOutcome fail(NodeLease lease, long id, String error, Instant retryAt) {
    Require.nonNull(retryAt, "retryAt");
    long now = clock.millis();
    long due = retryAt.toEpochMilli();
    return db.write(
        "record the failure of job " + id + " of node " + lease,
        tx -> {
          PreparedStatement fail = tx.prepare(JobSql.FAIL);
          bind(fail, due, due, aging, id, lease.node(), lease.epoch());
          Long state = counted.firstLong(fail);
          if (state == null) {
            return FailOutcome.NOT_HELD;
          }
          saveError(tx, id, error, now);
          if (state != JobSql.INCIDENT) {
            return FailOutcome.RETRY;
          }
          failedEntry(tx, id, lease, error, now);
          return FailOutcome.INCIDENT;
        });
  }

  boolean incident(NodeLease lease, long id, String error) {
    long now = clock.millis();
    return db.write(
        "make job " + id + " of node " + lease + " an incident",
        tx -> {
          PreparedStatement incident = tx.prepare(JobSql.INCIDENT_NOW);
          bind(incident, id, lease.node(), lease.epoch());
          if (counted.update(incident) == 0) {
            return false;
          }
          saveError(tx, id, error, now);
          failedEntry(tx, id, lease, error, now);
          return true;
        });
  }

  /** Writes the history entry of job {@code id}, an incident now, when the store keeps history. */
  private void failedEntry(
      JdbcAccess.Transaction tx, long id, NodeLease lease, String error, long now)
      throws SQLException {
    if (!sql.history()) {
      return;
    }
    PreparedStatement entry = tx.prepare(JobSql.HISTORY_FAILED);
    bind(entry, message(error), lease.node(), now, id);
    counted.update(entry);
  }

  private static String message(String error) {
    return error == null ? "(no message)" : error;
  }

  private void saveError(JdbcAccess.Transaction tx, long id, String error, long now)
      throws SQLException {
    PreparedStatement save = tx.prepare(JobSql.ERROR);
    bind(save, id, message(error), now);
    counted.update(save);
  }

  int release(NodeLease lease, Collection<Long> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    return db.write(
        "release " + ids.size() + " job(s) of node " + lease,
        tx -> {
          PreparedStatement release = tx.prepare(sql.release());
          bind(release, db.ids(ids), lease.node(), lease.epoch());
          int released = counted.update(release);
          if (released > 0) {
            tx.signal(JdbcJobStore.SIGNAL);
          }
          return released;
        });
  }
}
