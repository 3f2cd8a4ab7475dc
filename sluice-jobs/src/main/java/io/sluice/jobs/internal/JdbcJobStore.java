package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.micrometer.core.instrument.FunctionCounter;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Require;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobTypeStats;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * The job store in SQLite or PostgreSQL: tables {@code sluice_job} (narrow, one row per unfinished
 * job), {@code sluice_job_payload}, {@code sluice_job_error} and {@code sluice_job_node}, made by
 * the storage's migration V3. Every write goes through the storage's group-commit writer (on SQLite
 * the one writer, so a claim is one {@code UPDATE … RETURNING}; on PostgreSQL the same statement
 * with {@code FOR UPDATE SKIP LOCKED}, so nodes never claim one job twice). Due times are on the
 * application's clock; leases on the database's. One class for the whole SPI, as {@code
 * JdbcDurableQueue} is for the queue: its length is that of the SPI's operations.
 */
public final class JdbcJobStore implements JobStore {

  /** The signal woken when jobs may be claimable: new, released, reclaimed or retried. */
  public static final String SIGNAL = "sluice:jobs";

  private final JdbcAccess db;
  private final StoredValues values;
  private final Clock clock;
  private final long aging;
  private final JobSql sql;
  private final LongAdder statements = new LongAdder();
  private final JobListing listing;

  /**
   * A job store in {@code db}, writing payloads with {@code values}; {@code priorityAging} is what
   * one priority level is worth in due time (see {@link JobStore}). Zero makes each sort key the
   * due time itself: jobs are claimed by due time alone, through the same index.
   */
  public JdbcJobStore(JdbcAccess db, StoredValues values, Duration priorityAging) {
    this.db = db;
    this.values = values;
    this.clock = db.clock();
    this.aging = priorityAging.toMillis();
    this.sql = JobSql.of(db.type(), db.skipLocked(), db.inIds());
    this.listing = new JobListing(db);
    FunctionCounter.builder("sluice.jobs.store.statements", statements, LongAdder::sum)
        .description("SQL statements the job store ran (transaction control not counted)")
        .tag("store", db.type())
        .register(db.meterRegistry());
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
    List<byte[]> payloads = new ArrayList<>(jobs.size());
    jobs.forEach(job -> payloads.add(values.write(job.payload())));
    long now = clock.millis();
    return db.write(
        "create " + jobs.size() + " job(s) of type " + types(jobs),
        tx -> {
          List<Long> ids = insertAll(tx::prepare, jobs, payloads, now);
          tx.signal(SIGNAL);
          return ids;
        });
  }

  @Override
  public long create(Connection transaction, NewJob job) {
    Require.nonNull(transaction, "transaction");
    Require.nonNull(job, "job");
    byte[] payload = values.write(job.payload());
    return inCallerTransaction(
        transaction,
        "create a job of type '" + job.type() + "' in the caller's transaction",
        statements -> {
          long id =
              insertAll(statements, List.of(job), List.of(payload), clock.millis()).getFirst();
          db.signal(transaction, SIGNAL);
          return id;
        });
  }

  @Override
  public boolean complete(Connection transaction, NodeLease lease, long id) {
    Require.nonNull(transaction, "transaction");
    Require.nonNull(lease, "lease");
    return inCallerTransaction(
        transaction,
        "complete job " + id + " of node " + lease + " in the caller's transaction",
        statements -> !deleteHeld(statements, List.of(id), lease).isEmpty());
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

  @FunctionalInterface
  private interface Statements {
    PreparedStatement get(String sql) throws SQLException;
  }

  private int update(PreparedStatement statement) throws SQLException {
    statements.increment();
    return statement.executeUpdate();
  }

  private ResultSet rows(PreparedStatement statement) throws SQLException {
    statements.increment();
    return statement.executeQuery();
  }

  private <T> List<T> select(String what, String select, JdbcAccess.Row<T> row, Object... values) {
    statements.increment();
    return db.query(what, select, row, values);
  }

  /**
   * Jobs {@link JobSql#INSERT_MANY} creates in one statement: 10,000 × 8 arrays of small values, a
   * few hundred kilobytes. The server's time per job was about the same at 1,000, 10,000 and 50,000
   * per statement (docs/benchmarks.md, E5 "Creating the jobs"); a chunk bounds the memory of one.
   */
  static final int CHUNK = 10_000;

  /**
   * Creates {@code jobs} with their {@code payloads}; returns their ids in order, the existing
   * job's for a unique key already taken, in the table or earlier in the list.
   */
  private List<Long> insertAll(
      Statements statements, List<NewJob> jobs, List<byte[]> payloads, long now)
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
      Statements statements, List<NewJob> jobs, List<byte[]> payloads, long now)
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
      for (int k = 0; k < bytes.length; k++) {
        bytes[k] = payloads.get(chunk.get(k));
      }
      insert.setArray(parameter, connection.createArrayOf("bytea", bytes));
      int k = 0;
      try (ResultSet rs = rows(insert)) {
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
      Statements statements, List<NewJob> jobs, List<byte[]> payloads, long now)
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
        Long id = firstLong(insert);
        if (id == null) {
          PreparedStatement byKey = statements.get(JobSql.BY_KEY);
          bind(byKey, job.uniqueKey());
          ids.add(firstLong(byKey));
          continue;
        }
        if (payload == null) {
          payload = statements.get(JobSql.INSERT_PAYLOAD);
        }
        bind(payload, id, payloads.get(i));
        payload.addBatch();
        this.statements.increment();
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
      Long count = firstLong(running);
      if (count != null && count > 0) {
        throw new IllegalStateException(
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

  @Override
  public NodeLease register(String node, Duration duration) {
    Require.nonBlank(node, "node");
    long millis = positive(duration, "lease");
    long epoch =
        db.write(
            "register node '" + node + "' for jobs",
            tx -> {
              PreparedStatement register = tx.prepare(sql.register());
              bind(register, node, millis);
              return firstLong(register);
            });
    return new NodeLease(node, epoch);
  }

  @Override
  public int rank(NodeLease lease) {
    List<Long> counts =
        select(
            "count the live nodes before " + lease, sql.rank(), rs -> rs.getLong(1), lease.node());
    return counts.isEmpty() ? 0 : counts.getFirst().intValue();
  }

  @Override
  public boolean renew(NodeLease lease, Duration duration) {
    long millis = positive(duration, "lease");
    return db.write(
        "renew the lease of node " + lease,
        tx -> {
          PreparedStatement renew = tx.prepare(sql.renew());
          bind(renew, millis, lease.node(), lease.epoch());
          return update(renew) == 1;
        });
  }

  @Override
  public void deregister(NodeLease lease) {
    db.write(
        "deregister node " + lease,
        tx -> {
          PreparedStatement release =
              tx.prepare(
                  "UPDATE sluice_job SET state = 0, owner = NULL, epoch = NULL,"
                      + " attempts = attempts - 1 WHERE state = 1 AND owner = ? AND epoch = ?");
          bind(release, lease.node(), lease.epoch());
          if (update(release) > 0) {
            tx.signal(SIGNAL);
          }
          PreparedStatement forget = tx.prepare(JobSql.DEREGISTER);
          bind(forget, lease.node(), lease.epoch());
          update(forget);
          return null;
        });
  }

  /** A claimed row before its payload is read. */
  private record Row(
      long id,
      String type,
      int priority,
      long due,
      long sortKey,
      int retries,
      int attempt,
      String exclusiveKey) {

    /** The row {@code rs} is on, whose columns start with the claim's RETURNING list. */
    static Row of(ResultSet rs) throws SQLException {
      return new Row(
          rs.getLong(1),
          rs.getString(2),
          rs.getInt(3),
          rs.getLong(4),
          rs.getLong(5),
          rs.getInt(6),
          rs.getInt(7),
          rs.getString(8));
    }
  }

  /**
   * Claims, in {@code tx}, the due jobs of the exclusive keys free to take, for at most {@code
   * slots} keys (a key's jobs run one after another: one slot). The jobs this lease finished must
   * be completed before, in {@code tx}, for their keys to count as free.
   */
  private List<Row> claimKeyed(
      JdbcAccess.Transaction tx,
      NodeLease lease,
      List<String> types,
      int slots,
      Map<Long, byte[]> payloads)
      throws SQLException {
    long now = clock.millis();
    PreparedStatement select = tx.prepare(sql.keysToClaim(types.size()));
    List<Object> parameters = new ArrayList<>();
    parameters.add(now);
    parameters.addAll(types);
    parameters.add(Math.min(slots, MAX_KEYS_PER_CLAIM) * KEY_WINDOW);
    bind(select, parameters.toArray());
    List<String> keys = new ArrayList<>();
    try (ResultSet rs = rows(select)) {
      while (rs.next() && keys.size() < Math.min(slots, MAX_KEYS_PER_CLAIM)) {
        keys.add(rs.getString(1));
      }
    }
    if (keys.isEmpty()) {
      return List.of();
    }
    parameters.clear();
    parameters.add(lease.node());
    parameters.add(lease.epoch());
    parameters.addAll(keys);
    parameters.add(now);
    parameters.addAll(types);
    parameters.add(lease.node());
    parameters.add(lease.epoch());
    PreparedStatement claim = tx.prepare(sql.claimKeyed(keys.size(), types.size()));
    bind(claim, parameters.toArray());
    List<Row> claimed = new ArrayList<>();
    try (ResultSet rs = rows(claim)) {
      while (rs.next()) {
        Row row = Row.of(rs);
        claimed.add(row);
        if (sql.oneStatement()) {
          payloads.put(row.id(), rs.getBytes(9));
        }
      }
    }
    if (!sql.oneStatement()) {
      readPayloads(tx, claimed, payloads);
    }
    return claimed;
  }

  /** Whether a keyed job of these types is due at {@code now}. */
  private boolean keyedDue(JdbcAccess.Transaction tx, List<String> types, long now)
      throws SQLException {
    PreparedStatement due = tx.prepare(JobSql.keyedDue(types.size()));
    List<Object> parameters = new ArrayList<>();
    parameters.add(now);
    parameters.addAll(types);
    bind(due, parameters.toArray());
    try (ResultSet rs = rows(due)) {
      return rs.next();
    }
  }

  /** The most exclusive keys one claim takes. */
  static final int MAX_KEYS_PER_CLAIM = 500;

  /**
   * How many keyed jobs per free slot a claim reads, in claim order, to find the keys it may take:
   * the jobs of keys claimed already count in this window, so a backlog of held keys ahead of the
   * others in claim order holds those back until it runs down.
   */
  static final int KEY_WINDOW = 16;

  /** How many slots keyed rows take: one per key, its jobs running one after another. */
  private static int keySlots(List<Row> rows) {
    return (int) rows.stream().map(Row::exclusiveKey).distinct().count();
  }

  @Override
  public List<ClaimedJob> claim(NodeLease lease, Set<String> types, int max) {
    return claim(lease, types, max, List.of()).claimed();
  }

  @Override
  public ClaimResult claim(NodeLease lease, Set<String> types, int max, Collection<Long> done) {
    Require.atLeastOne(max);
    if (types.isEmpty()) {
      return new ClaimResult(List.of(), complete(lease, done));
    }
    List<String> sorted = List.copyOf(new TreeSet<>(types));
    long now = clock.millis();
    Map<Long, byte[]> payloads = new HashMap<>();
    Set<Long> completed = new LinkedHashSet<>();
    List<Row> rows =
        db.write(
            (done.isEmpty() ? "" : "complete " + done.size() + " job(s) and ")
                + "claim jobs for node "
                + lease,
            tx -> {
              payloads.clear();
              completed.clear();
              // The finished jobs are completed first when keyed jobs are due, so that the keys
              // they held are free to take in this claim; else, on PostgreSQL, in the statement
              // of the claim of jobs without a key.
              // One look at the keyed jobs' index (empty when no job has a key) decides both: a
              // claim of jobs without keys alone pays that one lookup.
              boolean keyed = keyedDue(tx, sorted, now);
              boolean together = !done.isEmpty() && sql.oneStatement() && !keyed;
              if (!done.isEmpty() && !together) {
                completed.addAll(deleteHeld(tx::prepare, done, lease));
              }
              List<Row> claimed =
                  keyed
                      ? new ArrayList<>(claimKeyed(tx, lease, sorted, max, payloads))
                      : new ArrayList<>();
              int slots = max - keySlots(claimed);
              if (slots == 0) {
                if (together) {
                  completed.addAll(deleteHeld(tx::prepare, done, lease));
                }
                return claimed;
              }
              List<Object> parameters = new ArrayList<>();
              if (together) {
                parameters.add(db.ids(done));
                parameters.add(lease.node());
                parameters.add(lease.epoch());
              }
              PreparedStatement claim =
                  tx.prepare(
                      together ? sql.completeAndClaim(sorted.size()) : sql.claim(sorted.size()));
              parameters.add(lease.node());
              parameters.add(lease.epoch());
              parameters.add(now);
              parameters.addAll(sorted);
              parameters.add(lease.node());
              parameters.add(lease.epoch());
              parameters.add(slots);
              bind(claim, parameters.toArray());
              try (ResultSet rs = rows(claim)) {
                while (rs.next()) {
                  if (together && rs.getBoolean(10)) {
                    completed.add(rs.getLong(1));
                    continue;
                  }
                  Row row = Row.of(rs);
                  claimed.add(row);
                  if (sql.oneStatement()) {
                    payloads.put(row.id(), rs.getBytes(9));
                  }
                }
              }
              if (!sql.oneStatement()) {
                readPayloads(tx, claimed, payloads);
              }
              return claimed;
            });
    return new ClaimResult(claimed(lease, rows, payloads), completed);
  }

  @Override
  public ClaimAttempt claimOptimistically(NodeLease lease, Set<String> types, int max) {
    Require.atLeastOne(max);
    if (types.isEmpty()) {
      return new ClaimAttempt(List.of(), 0);
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(clock.millis());
    parameters.addAll(new TreeSet<>(types));
    parameters.add(max);
    // What the candidates looked like when read: id and version, in id order so that two nodes
    // updating the same candidates lock them in the same order.
    Map<Long, Integer> read = new TreeMap<>();
    select(
        "select job candidates for node " + lease,
        JobSql.candidates(types.size()),
        rs -> read.put(rs.getLong(1), rs.getInt(2)),
        parameters.toArray());
    Map<Long, byte[]> payloads = new HashMap<>();
    List<String> sorted = List.copyOf(new TreeSet<>(types));
    int[] won = new int[1];
    List<Row> rows =
        db.write(
            "claim " + read.size() + " job candidate(s) for node " + lease,
            tx -> {
              PreparedStatement update = tx.prepare(sql.claimCandidate());
              List<Row> claimed = new ArrayList<>();
              for (Map.Entry<Long, Integer> candidate : read.entrySet()) {
                bind(
                    update,
                    lease.node(),
                    lease.epoch(),
                    candidate.getKey(),
                    candidate.getValue(),
                    lease.node(),
                    lease.epoch());
                try (ResultSet rs = rows(update)) {
                  if (rs.next()) {
                    claimed.add(Row.of(rs));
                  }
                }
              }
              won[0] = claimed.size();
              payloads.clear();
              readPayloads(tx, claimed, payloads);
              if (claimed.size() < max) {
                // Exclusive keys are decided under their locks, not optimistically.
                claimed.addAll(claimKeyed(tx, lease, sorted, max - claimed.size(), payloads));
              }
              return claimed;
            });
    return new ClaimAttempt(claimed(lease, rows, payloads), read.size() - won[0]);
  }

  private void readPayloads(JdbcAccess.Transaction tx, List<Row> claimed, Map<Long, byte[]> into)
      throws SQLException {
    if (claimed.isEmpty()) {
      return;
    }
    PreparedStatement select = tx.prepare(sql.payloads());
    select.setString(1, db.ids(claimed.stream().map(Row::id).toList()));
    try (ResultSet rs = rows(select)) {
      while (rs.next()) {
        into.put(rs.getLong(1), rs.getBytes(2));
      }
    }
  }

  /** The claimed jobs in aged-priority order, each reading its payload when asked. */
  private List<ClaimedJob> claimed(NodeLease lease, List<Row> rows, Map<Long, byte[]> payloads) {
    List<ClaimedJob> jobs = new ArrayList<>(rows.size());
    rows.stream()
        .sorted(Comparator.comparingLong(Row::sortKey).thenComparingLong(Row::id))
        .forEach(
            row -> {
              byte[] payload = payloads.get(row.id());
              jobs.add(
                  new ClaimedJob(
                      row.id(),
                      row.type(),
                      row.priority(),
                      Instant.ofEpochMilli(row.due()),
                      row.attempt(),
                      row.retries(),
                      lease,
                      () -> values.read(payload),
                      row.exclusiveKey()));
            });
    return jobs;
  }

  @Override
  public Set<Long> complete(NodeLease lease, Collection<Long> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return db.write(
        "complete " + ids.size() + " job(s) of node " + lease,
        tx -> deleteHeld(tx::prepare, ids, lease));
  }

  /** Deletes the jobs of {@code ids} that {@code lease} holds, with their payloads and errors. */
  private Set<Long> deleteHeld(Statements statements, Collection<Long> ids, NodeLease lease)
      throws SQLException {
    PreparedStatement delete = statements.get(sql.complete());
    bind(delete, db.ids(ids), lease.node(), lease.epoch());
    Set<Long> done = new LinkedHashSet<>();
    try (ResultSet rs = rows(delete)) {
      while (rs.next()) {
        done.add(rs.getLong(1));
      }
    }
    if (!done.isEmpty() && !sql.oneStatement()) {
      String list = db.ids(done);
      PreparedStatement payloads = statements.get(sql.deletePayloads());
      payloads.setString(1, list);
      update(payloads);
      PreparedStatement errors = statements.get(sql.deleteErrors());
      errors.setString(1, list);
      update(errors);
    }
    return done;
  }

  @Override
  public FailOutcome fail(NodeLease lease, long id, String error, Instant retryAt) {
    Require.nonNull(retryAt, "retryAt");
    long now = clock.millis();
    long due = retryAt.toEpochMilli();
    return db.write(
        "record the failure of job " + id + " of node " + lease,
        tx -> {
          PreparedStatement fail = tx.prepare(JobSql.FAIL);
          bind(fail, due, due, aging, id, lease.node(), lease.epoch());
          Long state = firstLong(fail);
          if (state == null) {
            return FailOutcome.NOT_HELD;
          }
          saveError(tx, id, error, now);
          return state == JobSql.INCIDENT ? FailOutcome.INCIDENT : FailOutcome.RETRY;
        });
  }

  @Override
  public boolean incident(NodeLease lease, long id, String error) {
    long now = clock.millis();
    return db.write(
        "make job " + id + " of node " + lease + " an incident",
        tx -> {
          PreparedStatement incident = tx.prepare(JobSql.INCIDENT_NOW);
          bind(incident, id, lease.node(), lease.epoch());
          if (update(incident) == 0) {
            return false;
          }
          saveError(tx, id, error, now);
          return true;
        });
  }

  private void saveError(JdbcAccess.Transaction tx, long id, String error, long now)
      throws SQLException {
    PreparedStatement save = tx.prepare(JobSql.ERROR);
    bind(save, id, error == null ? "(no message)" : error, now);
    update(save);
  }

  @Override
  public int release(NodeLease lease, Collection<Long> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    return db.write(
        "release " + ids.size() + " job(s) of node " + lease,
        tx -> {
          PreparedStatement release = tx.prepare(sql.release());
          bind(release, db.ids(ids), lease.node(), lease.epoch());
          int released = update(release);
          if (released > 0) {
            tx.signal(SIGNAL);
          }
          return released;
        });
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
          boolean retried = update(retry) == 1;
          if (retried) {
            tx.signal(SIGNAL);
          }
          return retried;
        });
  }

  @Override
  public List<Long> reclaim() {
    return db.write(
        "reclaim the jobs of lapsed nodes",
        tx -> {
          List<Long> ids = new ArrayList<>();
          try (ResultSet rs = rows(tx.prepare(sql.reclaim()))) {
            while (rs.next()) {
              ids.add(rs.getLong(1));
            }
          }
          if (!ids.isEmpty()) {
            tx.signal(SIGNAL);
          }
          return ids;
        });
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
    return select(what, select, JdbcJobStore::info, parameters);
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
    select(
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
        select(
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

  private static long positive(Duration duration, String what) {
    Require.nonNull(duration, what);
    if (!duration.isPositive() || duration.toMillis() < 1) {
      throw new IllegalArgumentException(
          what + " must be at least 1 ms, was " + duration + "; choose a positive duration");
    }
    return duration.toMillis();
  }

  /** The first column of the first row {@code statement} returns, or null when none. */
  private Long firstLong(PreparedStatement statement) throws SQLException {
    try (ResultSet rs = rows(statement)) {
      return rs.next() ? rs.getLong(1) : null;
    }
  }
}
