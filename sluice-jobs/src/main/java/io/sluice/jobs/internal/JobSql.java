package io.sluice.jobs.internal;

import io.sluice.jobs.spi.NewJob;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The job store's statements, shared by SQLite and PostgreSQL: what differs is the database clock
 * expression and the fragments the storage's dialect gives ({@code SKIP LOCKED}, id lists).
 */
final class JobSql {

  /** State of a job waiting to be claimed (due or not). */
  static final int WAITING = 0;

  /** State of a claimed job. */
  static final int RUNNING = 1;

  /** State of a job that failed with no retry left. */
  static final int INCIDENT = 2;

  /** What a new job's row is made of: the job, and its due time, sort key and creation time. */
  record NewRow(NewJob job, long due, long sortKey, long createdAt) {}

  /**
   * A column that creating a job sets: its name, its PostgreSQL type (the bulk insert sends an
   * array of it) and its value.
   */
  record Column(String name, String type, Function<NewRow, Object> value) {}

  /**
   * The columns a created job sets, besides {@code state} and {@code attempts} (0 both), in one
   * place: both inserts are made from this list, so a new column is one line here.
   */
  static final List<Column> NEW_JOB =
      List.of(
          new Column("type", "text", r -> r.job().type()),
          new Column("priority", "int4", r -> r.job().priority()),
          new Column("due_at", "int8", NewRow::due),
          new Column("sort_key", "int8", NewRow::sortKey),
          new Column("retries_left", "int4", r -> r.job().maxRetries()),
          new Column("unique_key", "text", r -> r.job().uniqueKey()),
          new Column("created_at", "int8", NewRow::createdAt),
          new Column("exclusive_key", "text", r -> r.job().exclusiveKey()));

  private static final String NEW_JOB_NAMES =
      NEW_JOB.stream().map(Column::name).collect(Collectors.joining(", "));

  private static final String ON_KEY_CONFLICT =
      " ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL DO NOTHING";

  /** Creates one job; no row when its unique key exists. Parameters: {@link #NEW_JOB}'s values. */
  static final String INSERT =
      "INSERT INTO sluice_job ("
          + NEW_JOB_NAMES
          + ", state, attempts) VALUES ("
          + placeholders(NEW_JOB.size())
          + ", 0, 0)"
          + ON_KEY_CONFLICT
          + " RETURNING id";

  /**
   * PostgreSQL: creates many jobs and their payloads in one statement. Parameters: an array per
   * column of {@link #NEW_JOB}, then the payloads ({@code bytea[]}) and their texts ({@code
   * text[]}, nulls when no history is kept); no two of them with one unique key. A row per job, in
   * the arrays' order: its id when created, the existing job's id when its key was taken before the
   * statement began, null when taken by a transaction that committed since (the caller then asks
   * again).
   *
   * <p>The ids are drawn from the table's sequence before the insert, so each created row is known
   * by the id its input row drew rather than by the order of {@code RETURNING}, which PostgreSQL
   * does not promise; the payloads of the created rows go in the same statement.
   */
  static final String INSERT_MANY =
      "WITH input AS MATERIALIZED (SELECT nextval(s.seq) AS id, t.* FROM (SELECT"
          + " pg_get_serial_sequence('sluice_job', 'id')::regclass AS seq) s, unnest("
          + NEW_JOB.stream().map(c -> "?::" + c.type() + "[], ").collect(Collectors.joining())
          + "?::bytea[], ?::text[]) WITH ORDINALITY AS t("
          + NEW_JOB_NAMES
          + ", payload, text, n)), inserted AS (INSERT INTO sluice_job (id, "
          + NEW_JOB_NAMES
          + ", state, attempts) SELECT id, "
          + NEW_JOB_NAMES
          + ", 0, 0 FROM input"
          + ON_KEY_CONFLICT
          + " RETURNING id), payloads AS (INSERT INTO sluice_job_payload (id, payload, text)"
          + " SELECT i.id, i.payload, i.text FROM input i JOIN inserted USING (id))"
          + " SELECT CASE WHEN c.id IS NOT NULL THEN c.id ELSE (SELECT j.id FROM sluice_job j"
          + " WHERE j.unique_key = i.unique_key) END FROM input i LEFT JOIN inserted c ON c.id ="
          + " i.id ORDER BY i.n";

  static final String BY_KEY = "SELECT id FROM sluice_job WHERE unique_key = ?";

  static final String INSERT_PAYLOAD =
      "INSERT INTO sluice_job_payload (id, payload, text) VALUES (?, ?, ?)";

  /** The history's columns, in the order every insert into it gives them. */
  static final String HISTORY_COLUMNS =
      "INSERT INTO sluice_job_history (job_id, type, state, priority, unique_key, exclusive_key,"
          + " attempts, error, node, created_at, finished_at, payload_text)";

  /** State of a history entry of a completed job. */
  static final int COMPLETED = 0;

  /** State of a history entry of a job that became an incident. */
  static final int FAILED = 1;

  /**
   * Writes the history entry of a job that just became an incident (its row still there).
   * Parameters: error, node, finished at, id.
   */
  static final String HISTORY_FAILED =
      HISTORY_COLUMNS
          + " SELECT j.id, j.type, "
          + FAILED
          + ", j.priority, j.unique_key, j.exclusive_key, j.attempts, ?, ?, j.created_at, ?,"
          + " p.text FROM sluice_job j LEFT JOIN sluice_job_payload p ON p.id = j.id WHERE j.id = ?";

  /** Makes every incident of a type wait again. Parameters: retries, now, now, aging, type. */
  static final String RETRY_TYPE =
      "UPDATE sluice_job SET state = 0, retries_left = ?, due_at = ?, sort_key = ? - priority * ?"
          + " WHERE state = 2 AND type = ?";

  /**
   * The lease fence on a held job: parameters node, epoch. Only a running job has an owner (every
   * statement that takes a job out of state 1 clears it), so the fence names no state: with {@code
   * state = 1} the planner may reach the jobs through the running jobs' index, and with statistics
   * taken while every job waited it does, reading every job the node holds for each write.
   */
  static final String HELD = " AND owner = ? AND epoch = ?";

  static final String FAIL =
      "UPDATE sluice_job SET"
          + " state = CASE WHEN retries_left > 0 THEN 0 ELSE 2 END,"
          + " due_at = CASE WHEN retries_left > 0 THEN ? ELSE due_at END,"
          + " sort_key = CASE WHEN retries_left > 0 THEN ? - priority * ? ELSE sort_key END,"
          + " retries_left = CASE WHEN retries_left > 0 THEN retries_left - 1 ELSE 0 END,"
          + " owner = NULL, epoch = NULL"
          + " WHERE id = ?"
          + HELD
          + " RETURNING state";

  static final String INCIDENT_NOW =
      "UPDATE sluice_job SET state = 2, retries_left = 0, owner = NULL, epoch = NULL WHERE id = ?"
          + HELD;

  static final String ERROR =
      "INSERT INTO sluice_job_error (id, error, failed_at) VALUES (?, ?, ?) ON CONFLICT (id)"
          + " DO UPDATE SET error = excluded.error, failed_at = excluded.failed_at";

  static final String RETRY =
      "UPDATE sluice_job SET state = 0, retries_left = ?, due_at = ?, sort_key = ? - priority * ?"
          + " WHERE id = ? AND state = 2";

  static final String DEREGISTER = "DELETE FROM sluice_job_node WHERE node = ? AND epoch = ?";

  static final String SELECT_JOB =
      "SELECT j.id, j.type, j.priority, j.due_at, j.state, j.owner, j.epoch, j.retries_left,"
          + " j.attempts, j.unique_key, j.created_at, e.error, j.exclusive_key"
          + " FROM sluice_job j LEFT JOIN sluice_job_error e ON e.id = j.id";

  /**
   * How many jobs of a type run without an exclusive key: a job of that type with a key could not
   * be held back by them. Parameter: type.
   */
  static final String RUNNING_UNKEYED =
      "SELECT COUNT(*) FROM sluice_job WHERE state = 1 AND type = ? AND exclusive_key IS NULL";

  /** What the claims return of each job, first in every row they make. */
  private static final String CLAIMED =
      " RETURNING id, type, priority, due_at, sort_key, retries_left, attempts, exclusive_key";

  static final String WAITING_BY_TYPE =
      "SELECT type, COUNT(*) FROM sluice_job WHERE state = 0 GROUP BY type";

  private final String now;
  private final String skipLocked;
  private final String inIds;
  private final boolean writableWith;
  private final boolean history;

  /**
   * The statements for a database whose clock reads as {@code now} (epoch milliseconds), with the
   * dialect's {@code skipLocked} and {@code inIds} fragments; {@code writableWith} when it runs
   * {@code UPDATE} and {@code DELETE} inside {@code WITH} (PostgreSQL), so that a claim reads its
   * payloads and a completion deletes its payloads and errors in the same statement; {@code
   * history} when a completion writes the history's entries.
   */
  JobSql(String now, String skipLocked, String inIds, boolean writableWith, boolean history) {
    this.now = now;
    this.skipLocked = skipLocked;
    this.inIds = inIds;
    this.writableWith = writableWith;
    this.history = history;
  }

  /**
   * For database {@code type} (sqlite or postgresql), with the dialect's fragments, writing the
   * history when {@code history}.
   */
  static JobSql of(String type, String skipLocked, String inIds, boolean history) {
    return new JobSql(databaseNow(type), skipLocked, inIds, type.equals("postgresql"), history);
  }

  /** Whether completions and incidents write the history's entries. */
  boolean history() {
    return history;
  }

  /** Whether {@link #claim} returns the payloads and {@link #complete} deletes them itself. */
  boolean oneStatement() {
    return writableWith;
  }

  /** Epoch milliseconds on the database's clock, for {@code type} (sqlite or postgresql). */
  static String databaseNow(String type) {
    return io.sluice.jobs.LeaseHolder.databaseNow(type);
  }

  /** {@code count} placeholders separated by commas. */
  static String placeholders(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }

  /** Registers a node, or gives it the next epoch. Parameters: node, lease millis. */
  String register() {
    return "INSERT INTO sluice_job_node (node, lease_expires, epoch) VALUES (?, "
        + now
        + " + ?, 1) ON CONFLICT (node) DO UPDATE SET lease_expires = excluded.lease_expires,"
        + " epoch = sluice_job_node.epoch + 1 RETURNING epoch";
  }

  /** Extends a lease that has not lapsed. Parameters: lease millis, node, epoch. */
  String renew() {
    return "UPDATE sluice_job_node SET lease_expires = "
        + now
        + " + ? WHERE node = ? AND epoch = ? AND lease_expires > "
        + now;
  }

  /** Counts the live nodes that sort before one. Parameter: node. */
  String rank() {
    return "SELECT COUNT(*) FROM sluice_job_node WHERE lease_expires > " + now + " AND node < ?";
  }

  /**
   * Claims in one statement. Parameters: node, epoch, now (app clock), each type, node, epoch, max.
   * Nothing is claimed unless the lease is valid on the database's clock.
   */
  String claim(int types) {
    String claim = claimRows(types);
    return writableWith
        ? "WITH claimed AS ("
            + claim
            + ") SELECT c.*, p.payload FROM claimed c"
            + " LEFT JOIN sluice_job_payload p ON p.id = c.id"
        : claim;
  }

  private String claimRows(int types) {
    // PostgreSQL: the ids as an array (an init plan), so the update finds its rows by primary key
    // whatever their number; with IN (subquery) a claim of some hundreds made it hash the whole
    // table (15 ms a claim of 512 among 100,000 waiting jobs, against 4 ms).
    return "UPDATE sluice_job SET state = 1, owner = ?, epoch = ?, attempts = attempts + 1"
        + (writableWith ? " WHERE id = ANY (ARRAY(" : " WHERE id IN (")
        + "SELECT id FROM sluice_job WHERE state = 0 AND due_at <= ? AND type IN ("
        + placeholders(types)
        + ") AND exclusive_key IS NULL AND EXISTS (SELECT 1 FROM sluice_job_node WHERE node = ?"
        + " AND epoch = ? AND lease_expires > "
        + now
        + ") ORDER BY sort_key LIMIT ?"
        + skipLocked
        + (writableWith ? "))" : ")")
        + CLAIMED;
  }

  /**
   * No job of the exclusive key {@code key} (a column) is claimed. (The jobs a claim completes are
   * deleted before, in its transaction: excepting them here by a list of ids compared each running
   * row with the whole list, 3 s a claim with 6,400 jobs running.)
   */
  private static String keyFree(String key) {
    return " AND NOT EXISTS (SELECT 1 FROM sluice_job r WHERE r.exclusive_key = "
        + key
        + " AND r.state = 1)";
  }

  /**
   * The exclusive keys a claim may take: those of the first due keyed jobs in claim order (at most
   * a window of them) with no job claimed; on PostgreSQL only those this transaction could lock (a
   * transaction-scoped advisory lock on the key's hash, which another node claiming at the same
   * time holds until it commits), so that two nodes never decide for one key at once. Parameters:
   * now, each type, window.
   */
  String keysToClaim(int types) {
    // The window is taken before the keys are checked, so that a claim reads a bounded number of
    // rows however many jobs of keys held already wait: checking each row in the scan read the
    // whole backlog of held keys (2.4 s a claim with 94,000 of them waiting).
    return "SELECT k FROM (SELECT DISTINCT exclusive_key AS k FROM (SELECT exclusive_key FROM"
        + " sluice_job WHERE state = 0 AND exclusive_key IS NOT NULL AND due_at <= ? AND type IN ("
        + placeholders(types)
        + ") ORDER BY sort_key LIMIT ?) w) keys WHERE TRUE"
        + keyFree("keys.k")
        // A volatile function is not pushed down into the subquery: the locks are tried on the
        // distinct keys of the window, after the check.
        + (writableWith ? " AND pg_try_advisory_xact_lock(" + KEY_LOCKS + ", hashtext(k))" : "");
  }

  /**
   * Whether a keyed job is due: the claim then completes its finished jobs first, so that their
   * keys are free to take. Parameters: now, each type.
   */
  static String keyedDue(int types) {
    return "SELECT 1 FROM sluice_job WHERE state = 0 AND exclusive_key IS NOT NULL AND due_at <= ?"
        + " AND type IN ("
        + placeholders(types)
        + ") LIMIT 1";
  }

  /** The first key of the advisory locks on exclusive keys ("SLJK"): apart from other locks. */
  static final int KEY_LOCKS = 0x534C4A4B;

  /** The most jobs of one exclusive key one claim takes: a key's due jobs, together. */
  static final int JOBS_PER_KEY = 64;

  /**
   * Claims the due jobs of {@code keys} keys, up to {@link #JOBS_PER_KEY} each in due order, for
   * each key no job of which is claimed. Run after {@link #keysToClaim} in the same transaction, so
   * on PostgreSQL under its locks and with a snapshot that sees every claim committed before them.
   * The check is made once a key, and a key's jobs are read from the key's index up to the limit
   * (PostgreSQL: a lateral subquery per key; SQLite: numbered by a window): checking and sorting
   * every waiting job of the keys made a claim cost 0.3 ms of database CPU per job. Parameters:
   * node, epoch, each key, now, each type, node, epoch, ids (completed in this commit), node, epoch
   * (the lease).
   */
  String claimKeyed(int keys, int types) {
    String values = " (VALUES " + String.join(", ", Collections.nCopies(keys, "(?)")) + ") AS v";
    String due = " j.state = 0 AND j.due_at <= ? AND j.type IN (" + placeholders(types) + ")";
    String free =
        keyFree("v.column1")
            + " AND EXISTS (SELECT 1 FROM sluice_job_node WHERE node = ? AND epoch = ?"
            + " AND lease_expires > "
            + now
            + ")";
    String ids =
        writableWith
            ? "SELECT x.id FROM"
                + values
                + " CROSS JOIN LATERAL (SELECT j.id FROM sluice_job j WHERE j.exclusive_key ="
                + " v.column1 AND"
                + due
                + " ORDER BY j.due_at, j.id LIMIT "
                + JOBS_PER_KEY
                + ") x WHERE TRUE"
                + free
            : "SELECT id FROM (SELECT j.id, ROW_NUMBER() OVER (PARTITION BY j.exclusive_key"
                + " ORDER BY j.due_at, j.id) AS n FROM"
                + values
                + " JOIN sluice_job j ON j.exclusive_key = v.column1 WHERE"
                + due
                + free
                + ") WHERE n <= "
                + JOBS_PER_KEY;
    String claim =
        "UPDATE sluice_job SET state = 1, owner = ?, epoch = ?, attempts = attempts + 1"
            + " WHERE state = 0 AND id "
            + (writableWith ? "= ANY (ARRAY(" + ids + "))" : "IN (" + ids + ")")
            + CLAIMED;
    return writableWith
        ? "WITH claimed AS ("
            + claim
            + ") SELECT c.*, p.payload FROM claimed c"
            + " LEFT JOIN sluice_job_payload p ON p.id = c.id"
        : claim;
  }

  /** The payloads of a list of jobs (one parameter). */
  String payloads() {
    return "SELECT id, payload FROM sluice_job_payload WHERE id" + inIds;
  }

  /**
   * Deletes the held jobs of a list, and on PostgreSQL their payloads and errors with them and,
   * keeping history, writes their entries. Parameters: ids, node, epoch, and with history on
   * PostgreSQL the time they finished.
   */
  String complete() {
    return writableWith ? "WITH " + completing() + " SELECT id FROM done" : deleteHeld();
  }

  /**
   * PostgreSQL: completes held jobs and claims in one statement. Parameters: ids, node, epoch (and
   * with history the time they finished: the completion), then the claim's. Rows: the claimed jobs
   * with their payloads and {@code done} false, then the completed ids with {@code done} true (and
   * nulls).
   */
  String completeAndClaim(int types) {
    return "WITH "
        + completing()
        + ", claimed AS ("
        + claimRows(types)
        + ") SELECT c.id, c.type, c.priority, c.due_at, c.sort_key, c.retries_left, c.attempts,"
        + " c.exclusive_key, p.payload, FALSE AS done FROM claimed c"
        + " LEFT JOIN sluice_job_payload p ON p.id = c.id"
        + " UNION ALL SELECT id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE FROM done";
  }

  private String deleteHeld() {
    return "DELETE FROM sluice_job WHERE id"
        + inIds
        + HELD
        + (writableWith && history
            ? " RETURNING id, type, priority, unique_key, exclusive_key, attempts, owner,"
                + " created_at"
            : " RETURNING id");
  }

  /**
   * The common table expressions that delete held jobs ({@code done}), payloads and errors, and
   * with history insert the jobs' entries from the rows deleted: no statement more.
   */
  private String completing() {
    // The payloads and errors by an id array, so each is found by key (IN (done) may scan).
    String ids = " = ANY (ARRAY(SELECT id FROM done))";
    if (!history) {
      return "done AS ("
          + deleteHeld()
          + "), payloads AS (DELETE FROM sluice_job_payload WHERE id"
          + ids
          + "), errors AS (DELETE FROM sluice_job_error WHERE id"
          + ids
          + ")";
    }
    return "done AS ("
        + deleteHeld()
        + "), payloads AS (DELETE FROM sluice_job_payload WHERE id"
        + ids
        + " RETURNING id, text), errors AS (DELETE FROM sluice_job_error WHERE id"
        + ids
        + " RETURNING id, error), entries AS ("
        + HISTORY_COLUMNS
        + " SELECT d.id, d.type, "
        + COMPLETED
        + ", d.priority, d.unique_key, d.exclusive_key, d.attempts, e.error, d.owner,"
        + " d.created_at, ?, p.text FROM done d LEFT JOIN payloads p ON p.id = d.id"
        + " LEFT JOIN errors e ON e.id = d.id)";
  }

  /**
   * SQLite, keeping history: writes the entries of the held jobs of a list, before {@link
   * #complete} deletes them in the same transaction. Parameters: finished at, ids, node, epoch.
   */
  String historyOfHeld() {
    return HISTORY_COLUMNS
        + " SELECT j.id, j.type, "
        + COMPLETED
        + ", j.priority, j.unique_key, j.exclusive_key, j.attempts, e.error, j.owner,"
        + " j.created_at, ?, p.text FROM sluice_job j LEFT JOIN sluice_job_payload p ON p.id ="
        + " j.id LEFT JOIN sluice_job_error e ON e.id = j.id WHERE j.id"
        + inIds
        + " AND j.owner = ? AND j.epoch = ?";
  }

  /**
   * The optimistic claim's candidates, read without a lock. Parameters: now (app clock), each type,
   * max.
   */
  static String candidates(int types) {
    return "SELECT id, attempts FROM sluice_job WHERE state = 0 AND due_at <= ? AND type IN ("
        + placeholders(types)
        + ") AND exclusive_key IS NULL ORDER BY sort_key LIMIT ?";
  }

  /**
   * Claims one candidate on the version it was read at ({@code attempts}, which every claim moves
   * on). Parameters: node, epoch, id, attempts read, node, epoch.
   */
  String claimCandidate() {
    return "UPDATE sluice_job SET state = 1, owner = ?, epoch = ?, attempts = attempts + 1"
        + " WHERE id = ? AND state = 0 AND attempts = ? AND EXISTS (SELECT 1 FROM sluice_job_node"
        + " WHERE node = ? AND epoch = ? AND lease_expires > "
        + now
        + ")"
        + CLAIMED;
  }

  /** Deletes the payloads and errors of finished jobs. Parameter: ids. */
  String deletePayloads() {
    return "DELETE FROM sluice_job_payload WHERE id" + inIds;
  }

  /** Deletes the errors of finished jobs. Parameter: ids. */
  String deleteErrors() {
    return "DELETE FROM sluice_job_error WHERE id" + inIds;
  }

  /** Hands held jobs back uncounted. Parameters: ids, node, epoch. */
  String release() {
    return "UPDATE sluice_job SET state = 0, owner = NULL, epoch = NULL,"
        + " attempts = attempts - 1 WHERE id"
        + inIds
        + HELD;
  }

  /**
   * Hands back every job whose lease lapsed or was replaced, in one statement; on PostgreSQL rows
   * another node is reclaiming or completing at the same time are skipped, not waited for.
   */
  String reclaim() {
    return "UPDATE sluice_job SET state = 0, owner = NULL, epoch = NULL WHERE id IN (SELECT id"
        + " FROM sluice_job WHERE state = 1 AND NOT EXISTS (SELECT 1 FROM sluice_job_node n"
        + " WHERE n.node = sluice_job.owner AND n.epoch = sluice_job.epoch AND n.lease_expires > "
        + now
        + ")"
        + skipLocked
        + ") RETURNING id";
  }

  /**
   * The next due time, of the jobs without a key and of the keyed ones apart, so that each reads
   * its own index. Parameters: horizon, now, horizon, each type, twice.
   */
  static String nextDue(int types) {
    String next =
        "SELECT MIN(due_at) AS due FROM sluice_job WHERE state = 0 AND sort_key < ? AND due_at > ?"
            + " AND due_at < ? AND type IN ("
            + placeholders(types)
            + ") AND exclusive_key IS ";
    return "SELECT MIN(due) FROM (" + next + "NULL UNION ALL " + next + "NOT NULL) n";
  }
}
