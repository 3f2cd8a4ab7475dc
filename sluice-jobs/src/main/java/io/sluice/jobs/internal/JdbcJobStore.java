package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Require;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobTypeStats;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeInfo;
import io.sluice.jobs.spi.NodeLease;
import io.sluice.jobs.spi.WaitingJobs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job store in SQLite or PostgreSQL: tables {@code sluice_job} (narrow, one row per unfinished
 * job), {@code sluice_job_payload}, {@code sluice_job_error} and {@code sluice_job_node}, made by
 * the storage's migration V3, and {@code sluice_job_history} (V10), written by the statement that
 * completes a job (on SQLite, one more statement in its transaction). Every write goes through the
 * storage's group-commit writer (on SQLite the one writer, so a claim is one {@code UPDATE …
 * RETURNING}; on PostgreSQL the same statement with {@code FOR UPDATE SKIP LOCKED}, so nodes never
 * claim one job twice). Due times are on the application's clock; leases on the database's. The
 * SPI's operations live in pieces beside it: {@link JobCreation}, {@link Leases}, {@link Claims},
 * {@link FencedOutcomes}, {@link JobListing} and {@link JobHistory}, their statements counted by
 * {@link JobStatements}.
 */
public final class JdbcJobStore implements JobStore {

  /** The signal woken when jobs may be claimable: new, released, reclaimed or retried. */
  public static final String SIGNAL = "sluice:jobs";

  private final JdbcAccess db;
  private final StoredValues values;
  private final Clock clock;
  private final long aging;
  private final JobSql sql;
  private final JobStatements counted;
  private final JobListing listing;
  private final JobCreation creation;
  private final Leases leases;
  private final FencedOutcomes outcomes;
  private final Claims claims;
  private final Duration historyRetention;
  private final JobHistory history;

  /**
   * A job store in {@code db}, writing payloads with {@code values}; {@code priorityAging} is what
   * one priority level is worth in due time (see {@link JobStore}). Zero makes each sort key the
   * due time itself: jobs are claimed by due time alone, through the same index. {@code history} is
   * how long the entries of finished jobs are kept; zero writes none.
   */
  public JdbcJobStore(
      JdbcAccess db, StoredValues values, Duration priorityAging, Duration history) {
    this.db = db;
    this.values = values;
    this.clock = db.clock();
    this.aging = priorityAging.toMillis();
    this.historyRetention = history;
    this.sql = JobSql.of(db.type(), db.skipLocked(), db.inIds(), !history.isZero());
    this.listing = new JobListing(db, JobSql.databaseNow(db.type()));
    this.counted = new JobStatements(db);
    this.history = new JobHistory(db, counted);
    this.creation = new JobCreation(sql, aging, counted);
    this.leases = new Leases(db, sql, counted);
    this.outcomes = new FencedOutcomes(db, sql, clock, aging, counted);
    this.claims = new Claims(db, sql, clock, values, counted, outcomes);
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public long changes() {
    return db.generation(SIGNAL);
  }

  @Override
  public boolean awaitChange(long seen, Duration timeout) throws InterruptedException {
    return db.await(SIGNAL, seen, timeout);
  }

  @Override
  public void wake() {
    db.wake(SIGNAL);
  }

  @Override
  public long create(NewJob job) {
    return createAll(List.of(Require.nonNull(job, "job"))).getFirst();
  }

  @Override
  public List<Long> createAll(List<NewJob> jobs) {
    Require.nonNull(jobs, "jobs");
    for (int i = 0; i < jobs.size(); i++) {
      Require.nonNull(jobs.get(i), "jobs[" + i + "]");
    }
    if (jobs.isEmpty()) {
      return List.of();
    }
    List<JobCreation.Payload> payloads = new ArrayList<>(jobs.size());
    jobs.forEach(job -> payloads.add(payload(job)));
    long now = clock.millis();
    return db.write(
        "create " + jobs.size() + " job(s) of type " + types(jobs),
        tx -> {
          List<Long> ids = creation.insertAll(tx::prepare, jobs, payloads, now);
          tx.signal(SIGNAL);
          return ids;
        });
  }

  @Override
  public long create(Connection transaction, NewJob job) {
    Require.nonNull(transaction, "transaction");
    Require.nonNull(job, "job");
    JobCreation.Payload payload = payload(job);
    return inCallerTransaction(
        transaction,
        "create a job of type '" + job.type() + "' in the caller's transaction",
        statements -> {
          long id =
              creation
                  .insertAll(statements, List.of(job), List.of(payload), clock.millis())
                  .getFirst();
          db.signal(transaction, SIGNAL);
          return id;
        });
  }

  /** The payload of {@code job} as stored, with its text when the store keeps history. */
  private JobCreation.Payload payload(NewJob job) {
    return new JobCreation.Payload(
        values.write(job.payload()), sql.history() ? JobHistory.text(job.payload()) : null);
  }

  @Override
  public boolean complete(Connection transaction, NodeLease lease, long id) {
    Require.nonNull(transaction, "transaction");
    Require.nonNull(lease, "lease");
    return inCallerTransaction(
        transaction,
        "complete job " + id + " of node " + lease + " in the caller's transaction",
        statements -> !outcomes.deleteHeld(statements, List.of(id), lease).isEmpty());
  }

  /** Work on a caller's connection, whose statements are closed after it. */
  @FunctionalInterface
  private interface CallerWork<T> {
    T run(Statements statements) throws SQLException;
  }

  private <T> T inCallerTransaction(Connection transaction, String what, CallerWork<T> work) {
    List<PreparedStatement> opened = new ArrayList<>();
    try {
      return work.run(
          s -> {
            PreparedStatement statement = transaction.prepareStatement(s);
            opened.add(statement);
            return statement;
          });
    } catch (SQLException e) {
      throw db.failure(what, e);
    } finally {
      for (PreparedStatement statement : opened) {
        try {
          statement.close();
        } catch (SQLException e) {
          // closing a statement of the caller's connection: nothing left to release
        }
      }
    }
  }

  @Override
  public List<ClaimedJob> claim(NodeLease lease, Set<String> types, int max) {
    return claim(lease, types, max, List.of()).claimed();
  }

  @Override
  public NodeLease register(String node, Duration duration) {
    return leases.register(node, duration);
  }

  @Override
  public int rank(NodeLease lease) {
    return leases.rank(lease);
  }

  @Override
  public boolean renew(NodeLease lease, Duration duration) {
    return leases.renew(lease, duration);
  }

  @Override
  public void deregister(NodeLease lease) {
    leases.deregister(lease);
  }

  @Override
  public ClaimResult claim(NodeLease lease, Set<String> types, int max, Collection<Long> done) {
    return claims.claim(lease, types, max, done);
  }

  @Override
  public ClaimAttempt claimOptimistically(NodeLease lease, Set<String> types, int max) {
    return claims.claimOptimistically(lease, types, max);
  }

  @Override
  public Set<Long> complete(NodeLease lease, Collection<Long> ids) {
    return outcomes.complete(lease, ids);
  }

  @Override
  public FailOutcome fail(NodeLease lease, long id, String error, Instant retryAt) {
    return outcomes.fail(lease, id, error, retryAt);
  }

  @Override
  public boolean incident(NodeLease lease, long id, String error) {
    return outcomes.incident(lease, id, error);
  }

  @Override
  public int release(NodeLease lease, Collection<Long> ids) {
    return outcomes.release(lease, ids);
  }

  @Override
  public boolean retry(long id, int retries) {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must not be negative, was " + retries);
    }
    long now = clock.millis();
    return db.write(
        "retry incident " + id,
        tx -> {
          PreparedStatement retry = tx.prepare(JobSql.RETRY);
          bind(retry, retries, now, now, aging, id);
          boolean retried = counted.update(retry) == 1;
          if (retried) {
            tx.signal(SIGNAL);
          }
          return retried;
        });
  }

  @Override
  public int retryIncidents(String type, int retries) {
    NewJob.type(Require.nonNull(type, "type"));
    if (retries < 0) {
      throw new IllegalArgumentException("retries must not be negative, was " + retries);
    }
    long now = clock.millis();
    return db.write(
        "retry the incidents of type '" + type + "'",
        tx -> {
          PreparedStatement retry = tx.prepare(JobSql.RETRY_TYPE);
          bind(retry, retries, now, now, aging, type);
          int retried = counted.update(retry);
          if (retried > 0) {
            tx.signal(SIGNAL);
          }
          return retried;
        });
  }

  @Override
  public Duration historyRetention() {
    return historyRetention;
  }

  @Override
  public List<FinishedJob> history(HistoryQuery query) {
    return history.history(Require.nonNull(query, "query"));
  }

  @Override
  public int prune(Instant finishedBefore, int max) {
    Require.nonNull(finishedBefore, "finishedBefore");
    return history.prune(finishedBefore, Require.atLeastOne(max));
  }

  @Override
  public List<Long> reclaim() {
    return leases.reclaim();
  }

  @Override
  public Optional<JobInfo> find(long id) {
    return jobs("find job " + id, JobSql.SELECT_JOB + " WHERE j.id = ?", id).stream().findFirst();
  }

  @Override
  public List<JobInfo> incidents(int max) {
    Require.atLeastOne(max);
    return jobs(
        "list incidents", JobSql.SELECT_JOB + " WHERE j.state = 2 ORDER BY j.id LIMIT ?", max);
  }

  private List<JobInfo> jobs(String what, String select, Object... parameters) {
    return counted.select(what, select, JdbcJobStore::info, parameters);
  }

  /** A row of {@link JobSql#SELECT_JOB}. */
  static JobInfo info(ResultSet rs) throws SQLException {
    int state = rs.getInt(5);
    JobState jobState =
        switch (state) {
          case JobSql.WAITING -> new JobState.Waiting(Instant.ofEpochMilli(rs.getLong(4)));
          case JobSql.RUNNING ->
              new JobState.Running(new NodeLease(rs.getString(6), rs.getLong(7)));
          default -> new JobState.Incident(rs.getString(12));
        };
    return new JobInfo(
        rs.getLong(1),
        rs.getString(2),
        rs.getInt(3),
        jobState,
        rs.getInt(8),
        rs.getInt(9),
        rs.getString(10),
        rs.getString(12),
        Instant.ofEpochMilli(rs.getLong(11)),
        rs.getString(13));
  }

  @Override
  public Map<String, Long> waitingByType() {
    Map<String, Long> counts = new LinkedHashMap<>();
    counted.select(
        "count the waiting jobs per type",
        JobSql.WAITING_BY_TYPE,
        rs -> counts.put(rs.getString(1), rs.getLong(2)));
    return counts;
  }

  @Override
  public List<JobInfo> list(JobQuery query) {
    return listing.list(Require.nonNull(query, "query"));
  }

  @Override
  public List<JobTypeStats> stats() {
    return listing.stats(clock.millis());
  }

  @Override
  public List<WaitingJobs> waitingByPriority() {
    return listing.waitingByPriority();
  }

  @Override
  public Map<String, Long> runningByNode() {
    return listing.runningByNode();
  }

  @Override
  public List<NodeInfo> nodes() {
    return listing.nodes();
  }

  @Override
  public Optional<Instant> nextDue(Set<String> types, Instant horizon) {
    if (types.isEmpty()) {
      return Optional.empty();
    }
    List<Object> parameters = new ArrayList<>();
    long until = horizon.toEpochMilli();
    for (int i = 0; i < 2; i++) { // the jobs without a key, then the keyed ones
      parameters.add(until);
      parameters.add(clock.millis());
      parameters.add(until);
      parameters.addAll(new TreeSet<>(types));
    }
    List<Long> due =
        counted.select(
            "find the next due job",
            JobSql.nextDue(types.size()),
            rs -> rs.getLong(1) == 0 && rs.wasNull() ? null : rs.getLong(1),
            parameters.toArray());
    return Optional.ofNullable(due.getFirst()).map(Instant::ofEpochMilli);
  }

  private static String types(List<NewJob> jobs) {
    return jobs.stream()
        .map(NewJob::type)
        .distinct()
        .limit(3)
        .map(t -> "'" + t + "'")
        .reduce((a, b) -> a + ", " + b)
        .orElse("");
  }
}
