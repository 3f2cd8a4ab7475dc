package io.sluice.jobs.internal;

import static io.sluice.jdbc.JdbcAccess.bind;

import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Require;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore.ClaimAttempt;
import io.sluice.jobs.spi.JobStore.ClaimResult;
import io.sluice.jobs.spi.NodeLease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The claims of due jobs: skip-locked and optimistic, each with the exclusive-key claim. */
final class Claims {

  private final JdbcAccess db;
  private final JobSql sql;
  private final Clock clock;
  private final StoredValues values;
  private final JobStatements counted;
  private final FencedOutcomes outcomes;

  Claims(
      JdbcAccess db,
      JobSql sql,
      Clock clock,
      StoredValues values,
      JobStatements counted,
      FencedOutcomes outcomes) {
    this.db = db;
    this.sql = sql;
    this.clock = clock;
    this.values = values;
    this.counted = counted;
    this.outcomes = outcomes;
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
    try (ResultSet rs = counted.rows(select)) {
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
    try (ResultSet rs = counted.rows(claim)) {
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
    try (ResultSet rs = counted.rows(due)) {
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

  ClaimResult claim(NodeLease lease, Set<String> types, int max, Collection<Long> done) {
    Require.atLeastOne(max);
    if (types.isEmpty()) {
      return new ClaimResult(List.of(), outcomes.complete(lease, done));
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
                completed.addAll(outcomes.deleteHeld(tx::prepare, done, lease));
              }
              List<Row> claimed =
                  keyed
                      ? new ArrayList<>(claimKeyed(tx, lease, sorted, max, payloads))
                      : new ArrayList<>();
              int slots = max - keySlots(claimed);
              if (slots == 0) {
                if (together) {
                  completed.addAll(outcomes.deleteHeld(tx::prepare, done, lease));
                }
                return claimed;
              }
              List<Object> parameters = new ArrayList<>();
              if (together) {
                parameters.add(db.ids(done));
                parameters.add(lease.node());
                parameters.add(lease.epoch());
                if (sql.history()) {
                  parameters.add(clock.millis());
                }
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
              try (ResultSet rs = counted.rows(claim)) {
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

  ClaimAttempt claimOptimistically(NodeLease lease, Set<String> types, int max) {
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
    counted.select(
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
                try (ResultSet rs = counted.rows(update)) {
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
    try (ResultSet rs = counted.rows(select)) {
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
}
