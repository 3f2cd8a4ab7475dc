package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.core.SluiceException;
import io.sluice.jobs.spi.NewJob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Creation of jobs: their rows and payloads inserted, in one statement or one per job. */
final class JobCreation {

  private final JobSql sql;
  private final long aging;
  private final JobStatements counted;

  JobCreation(JobSql sql, long aging, JobStatements counted) {
    this.sql = sql;
    this.aging = aging;
    this.counted = counted;
  }

  /**
   * Jobs {@link JobSql#INSERT_MANY} creates in one statement: 10,000 × 8 arrays of small values, a
   * few hundred kilobytes. The server's time per job was about the same at 1,000, 10,000 and 50,000
   * per statement (docs/benchmarks.md, E5 "Creating the jobs"); a chunk bounds the memory of one.
   */
  static final int CHUNK = 10_000;

  /**
   * A job's payload as stored: the serializer's bytes, and its text for the history's search (null
   * when the store keeps no history).
   */
  record Payload(byte[] bytes, String text) {}

  /**
   * Creates {@code jobs} with their {@code payloads}; returns their ids in order, the existing
   * job's for a unique key already taken, in the table or earlier in the list.
   */
  List<Long> insertAll(Statements statements, List<NewJob> jobs, List<Payload> payloads, long now)
      throws SQLException {
    refuseKeysBesideUnkeyedRunning(statements, jobs);
    return sql.oneStatement()
        ? insertMany(statements, jobs, payloads, now)
        : insertEach(statements, jobs, payloads, now);
  }

  private JobSql.NewRow row(NewJob job, long now) {
    long due = job.dueAt() == null ? now : job.dueAt().toEpochMilli();
    return new JobSql.NewRow(job, due, due - job.priority() * aging, now);
  }

  /**
   * PostgreSQL: {@link JobSql#INSERT_MANY} per {@link #CHUNK} jobs, one round trip each, instead of
   * a statement per job (E5's 200,000 jobs: 19,234 jobs/s against 6,575 on a loaded machine). A key
   * repeated in the list is sent once, so that no statement holds it twice; its later jobs take the
   * first one's id.
   */
  private List<Long> insertMany(
      Statements statements, List<NewJob> jobs, List<Payload> payloads, long now)
      throws SQLException {
    Long[] ids = new Long[jobs.size()];
    Map<String, Integer> firstWithKey = new HashMap<>();
    int[] sameAs = new int[jobs.size()];
    List<Integer> sent = new ArrayList<>(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      String key = jobs.get(i).uniqueKey();
      Integer first = key == null ? null : firstWithKey.putIfAbsent(key, i);
      sameAs[i] = first == null ? i : first;
      if (first == null) {
        sent.add(i);
      }
    }
    PreparedStatement insert = statements.get(JobSql.INSERT_MANY);
    Connection connection = insert.getConnection();
    for (int from = 0; from < sent.size(); from += CHUNK) {
      List<Integer> chunk = sent.subList(from, Math.min(sent.size(), from + CHUNK));
      List<JobSql.NewRow> rows = new ArrayList<>(chunk.size());
      chunk.forEach(i -> rows.add(row(jobs.get(i), now)));
      int parameter = 1;
      for (JobSql.Column column : JobSql.NEW_JOB) {
        Object[] values = new Object[rows.size()];
        for (int k = 0; k < values.length; k++) {
          values[k] = column.value().apply(rows.get(k));
        }
        insert.setArray(parameter++, connection.createArrayOf(column.type(), values));
      }
      byte[][] bytes = new byte[chunk.size()][];
      String[] texts = new String[chunk.size()];
      for (int k = 0; k < bytes.length; k++) {
        bytes[k] = payloads.get(chunk.get(k)).bytes();
        texts[k] = payloads.get(chunk.get(k)).text();
      }
      insert.setArray(parameter++, connection.createArrayOf("bytea", bytes));
      insert.setArray(parameter, connection.createArrayOf("text", texts));
      int k = 0;
      try (ResultSet rs = counted.rows(insert)) {
        while (rs.next()) {
          long id = rs.getLong(1);
          ids[chunk.get(k++)] = rs.wasNull() ? null : id;
        }
      }
    }
    for (int i : sent) {
      if (ids[i] == null) {
        // Its key was taken by a transaction that committed after the statement began.
        ids[i] = insertEach(statements, List.of(jobs.get(i)), List.of(payloads.get(i)), now).get(0);
      }
    }
    List<Long> result = new ArrayList<>(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      result.add(ids[sameAs[i]]);
    }
    return result;
  }

  /**
   * {@link JobSql#INSERT} per job, then the payloads of the new jobs in one batch: on SQLite every
   * job (a call into a library in the same process, no round trip), on PostgreSQL a job whose key a
   * transaction committed while the bulk statement ran.
   */
  private List<Long> insertEach(
      Statements statements, List<NewJob> jobs, List<Payload> payloads, long now)
      throws SQLException {
    List<Long> ids = new ArrayList<>(jobs.size());
    // The payloads go in one batch after the jobs: one round trip for all of them on PostgreSQL,
    // where a row each cost one (10,000 jobs made 20,000 round trips).
    PreparedStatement payload = null;
    try {
      for (int i = 0; i < jobs.size(); i++) {
        NewJob job = jobs.get(i);
        JobSql.NewRow row = row(job, now);
        PreparedStatement insert = statements.get(JobSql.INSERT);
        bind(insert, JobSql.NEW_JOB.stream().map(c -> c.value().apply(row)).toArray());
        Long id = counted.firstLong(insert);
        if (id == null) {
          PreparedStatement byKey = statements.get(JobSql.BY_KEY);
          bind(byKey, job.uniqueKey());
          ids.add(counted.firstLong(byKey));
          continue;
        }
        if (payload == null) {
          payload = statements.get(JobSql.INSERT_PAYLOAD);
        }
        bind(payload, id, payloads.get(i).bytes(), payloads.get(i).text());
        payload.addBatch();
        counted.increment();
        ids.add(id);
      }
      if (payload != null) {
        payload.executeBatch();
      }
    } catch (SQLException | RuntimeException e) {
      if (payload != null) {
        // The writer keeps its statements: a batch left behind would be run by the next write.
        payload.clearBatch();
      }
      throw e;
    }
    return ids;
  }

  /**
   * Refuses jobs with an exclusive key of a type whose jobs run without one: the key would not hold
   * those back, and the work it should serialize could run twice at once.
   */
  private void refuseKeysBesideUnkeyedRunning(Statements statements, List<NewJob> jobs)
      throws SQLException {
    Map<String, String> keyedTypes = new LinkedHashMap<>();
    for (NewJob job : jobs) {
      if (job.exclusiveKey() != null) {
        keyedTypes.putIfAbsent(job.type(), job.exclusiveKey());
      }
    }
    for (Map.Entry<String, String> keyed : keyedTypes.entrySet()) {
      PreparedStatement running = statements.get(JobSql.RUNNING_UNKEYED);
      bind(running, keyed.getKey());
      Long count = counted.firstLong(running);
      if (count != null && count > 0) {
        throw new SluiceException(
            "exclusiveKey '"
                + keyed.getValue()
                + "' on a job of type '"
                + keyed.getKey()
                + "': "
                + count
                + " job(s) of that type are running without an exclusive key, which the key"
                + " cannot hold back; create keyed jobs of '"
                + keyed.getKey()
                + "' once those have finished (sluice jobs list <config> --type "
                + keyed.getKey()
                + " --state running), nothing was created");
      }
    }
  }
}
