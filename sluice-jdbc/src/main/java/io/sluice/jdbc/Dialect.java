package io.sluice.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Set;

/**
 * What differs between SQLite and PostgreSQL; everything else (tables, statements, group commit,
 * queue rules) is shared. Kept to SQL text and a few switches so that one mechanism serves both.
 */
enum Dialect {
  /** Embedded SQLite: one writer, {@code BEGIN IMMEDIATE} so the write lock is taken up front. */
  SQLITE(
      "sqlite",
      "BEGIN IMMEDIATE",
      "",
      null,
      " IN (SELECT value FROM json_each(?))",
      '[',
      ']',
      false),

  /**
   * PostgreSQL: several nodes; takes skip rows another node has locked, migrations serialise on an
   * advisory lock, enqueues notify the other nodes.
   */
  POSTGRESQL(
      "postgresql",
      "BEGIN",
      " FOR UPDATE SKIP LOCKED",
      "SELECT pg_advisory_xact_lock(hashtext('sluice_schema.' || current_schema()))",
      " = ANY(?::bigint[])",
      '{',
      '}',
      true);

  /** The channel enqueues notify on PostgreSQL; the payload is the queue's name. */
  static final String CHANNEL = "sluice_queue";

  private final String type;
  private final String begin;
  private final String skipLocked;
  private final String schemaLock;
  private final String inIds;
  private final char idsOpen;
  private final char idsClose;
  private final boolean notifies;

  Dialect(
      String type,
      String begin,
      String skipLocked,
      String schemaLock,
      String inIds,
      char idsOpen,
      char idsClose,
      boolean notifies) {
    this.type = type;
    this.begin = begin;
    this.skipLocked = skipLocked;
    this.schemaLock = schemaLock;
    this.inIds = inIds;
    this.idsOpen = idsOpen;
    this.idsClose = idsClose;
    this.notifies = notifies;
  }

  /** The store type, as in configuration and metric tags. */
  String type() {
    return type;
  }

  /** The statement that starts a write transaction. */
  String begin() {
    return begin;
  }

  /** {@code FOR UPDATE SKIP LOCKED} where several nodes take, empty on SQLite (one writer). */
  String skipLocked() {
    return skipLocked;
  }

  /** The statement that serialises migrations among nodes, or null when the begin already does. */
  String schemaLock() {
    return schemaLock;
  }

  /**
   * The condition on an id column that it is one of a list of ids, given as one parameter made by
   * {@link #ids}: one statement for any number of ids. A JSON array on SQLite; an array on
   * PostgreSQL, whose planner then uses the primary key (it cannot estimate a set-returning
   * function, and scanned the whole table).
   */
  String inIds() {
    return inIds;
  }

  /**
   * The parameter for {@link #inIds()}: {@code [1,2,3]} on SQLite, {@code {1,2,3}} on PostgreSQL.
   */
  String ids(Collection<Long> ids) {
    StringBuilder list = new StringBuilder(ids.size() * 8).append(idsOpen);
    for (long id : ids) {
      list.append(list.length() == 1 ? "" : ",").append(id);
    }
    return list.append(idsClose).toString();
  }

  /** Selects the payloads of the messages whose ids are given (one parameter, see {@link #ids}). */
  String payloads() {
    return "SELECT id, payload FROM sluice_queue_payload WHERE id" + inIds();
  }

  /**
   * Takes up to {@code max} ready messages in one statement. Parameters: max deliveries (5 times),
   * owner, lock expiry (twice), queue, now, max. A ready message that was already delivered max
   * times (its lock lapsed) goes to the dead letters instead: the row comes back with dead = 1.
   */
  String take() {
    return """
        UPDATE sluice_queue SET
          dead = CASE WHEN deliveries >= ? THEN 1 ELSE 0 END,
          lock_owner = CASE WHEN deliveries >= ? THEN NULL ELSE ? END,
          lock_expires = CASE WHEN deliveries >= ? THEN NULL ELSE ? END,
          visible_at = CASE WHEN deliveries >= ? THEN visible_at ELSE ? END,
          deliveries = CASE WHEN deliveries >= ? THEN deliveries ELSE deliveries + 1 END
        WHERE id IN (SELECT id FROM sluice_queue
                     WHERE queue = ? AND dead = 0 AND visible_at <= ?
                     ORDER BY id LIMIT ?%s)
        RETURNING id, deliveries, dead"""
        .formatted(skipLocked);
  }

  /** Tells other nodes, before the commit, that these queues got messages. */
  void notifyQueues(WriteContext tx, Set<String> queues) throws SQLException {
    if (!notifies || queues.isEmpty()) {
      return;
    }
    PreparedStatement notify = tx.prepare("SELECT pg_notify('" + CHANNEL + "', ?)");
    for (String queue : queues) {
      notify.setString(1, queue);
      notify.execute();
    }
  }
}
