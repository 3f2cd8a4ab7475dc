package io.sluice.jdbc;

import io.sluice.core.Backoff;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.RecordFault;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Require;
import io.sluice.core.store.StoreException;
import io.sluice.core.transaction.Transaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A durable queue in {@code sluice_queue}: one row per message. A taken message carries its lock
 * owner and expiry, and its {@code visible_at} is set to that expiry, so "ready" is only {@code
 * visible_at <= now} and one index serves the take. Ack, nack and release are fenced by the id, the
 * owner, the lock expiry and the delivery count the delivery saw, so a late answer after the
 * message was taken again changes nothing. All writes go through the storage's group-commit writer.
 * A taken message whose payload cannot be read goes to the dead letters at once ({@link
 * UnreadableMessages}); the take returns the others.
 */
final class JdbcDurableQueue implements DurableQueue {

  /** Rows per multi-row insert: few statements, well under every driver's parameter limit. */
  private static final int ROWS_PER_INSERT = 500;

  private static final Backoff UNREACHABLE =
      Backoff.doubling(Duration.ofMillis(50), Duration.ofSeconds(5));

  private static final String FENCE =
      " WHERE id = ? AND lock_owner = ? AND lock_expires = ? AND deliveries = ? AND lock_expires > ?";

  /** The fence of a set of deliveries taken together: same owner, lock expiry and count. */
  private static final String SET_FENCE =
      " AND lock_owner = ? AND lock_expires = ? AND deliveries = ? AND lock_expires > ?";

  private static final String NACK =
      "UPDATE sluice_queue SET lock_owner = NULL, lock_expires = NULL, visible_at = ?,"
          + " dead = CASE WHEN deliveries >= ? THEN 1 ELSE 0 END"
          + FENCE;

  private static final String BURY =
      "UPDATE sluice_queue SET lock_owner = NULL, lock_expires = NULL, dead = 1" + FENCE;

  /** Keeps why a message is dead (its bytes unreadable, its consumer's reason). */
  static final String DEAD_REASON =
      "INSERT INTO sluice_queue_dead (id, reason) VALUES (?, ?)"
          + " ON CONFLICT (id) DO UPDATE SET reason = excluded.reason";

  private static final String RELEASE =
      "UPDATE sluice_queue SET lock_owner = NULL, lock_expires = NULL, visible_at = ?,"
          + " deliveries = deliveries - 1"
          + FENCE;

  /** A lapsed lock on a message taken max times: it is dead, whether or not a take moved it. */
  private static final String LAPSED_DEAD =
      "(lock_owner IS NOT NULL AND deliveries >= ? AND visible_at <= ?)";

  private static final String SIZE =
      "SELECT COUNT(*) FROM sluice_queue WHERE queue = ? AND dead = 0 AND NOT " + LAPSED_DEAD;

  private static final String DEAD_WHERE =
      " FROM sluice_queue q WHERE queue = ? AND (dead = 1 OR " + LAPSED_DEAD + ")";

  private final JdbcStorage storage;
  private final String name;
  private final QueueOptions options;
  private final StoredValues values;
  private final String owner;
  private final String take;
  private final UnreadableMessages unreadable;
  private final GroupCommitWriter.SharedWork<List<byte[]>, List<Long>> inserts = this::insertAll;

  JdbcDurableQueue(JdbcStorage storage, String name, QueueOptions options, StoredValues values) {
    this.storage = storage;
    this.name = name;
    this.options = options;
    this.values = values;
    this.owner = options.ownerOrMadeUp();
    this.take = storage.dialect().take();
    this.unreadable = new UnreadableMessages(storage, name, owner);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String owner() {
    return owner;
  }

  @Override
  public long enqueue(Object payload) {
    return enqueueAll(List.of(Require.nonNull(payload, "payload"))).getFirst();
  }

  @Override
  public List<Long> enqueueAll(List<?> payloads) {
    Require.payloads(payloads);
    if (payloads.isEmpty()) {
      return List.of();
    }
    List<byte[]> records = new ArrayList<>(payloads.size());
    for (Object payload : payloads) {
      records.add(values.write(payload));
    }
    return storage.write(
        "enqueue " + records.size() + " message(s) into queue '" + name + "'", inserts, records);
  }

  @Override
  public boolean joins(Transaction transaction) {
    return storage.database() != null && storage.database().equals(transaction.database());
  }

  /**
   * Inserts the message with the same statements as the writer's enqueues ({@link #insertAll}), on
   * the transaction's connection; PostgreSQL's NOTIFY is queued in it and sent at its commit, and
   * this process's consumers are woken after the commit.
   */
  @Override
  public long enqueue(Object payload, Transaction transaction) {
    if (!joins(transaction)) {
      return DurableQueue.super.enqueue(payload, transaction);
    }
    byte[] record = values.write(Require.nonNull(payload, "payload"));
    String what = "enqueue a message into queue '" + name + "' inside " + transaction;
    try {
      return transaction.join(
          Connection.class,
          connection -> {
            WriteContext tx = new WriteContext(connection);
            try {
              long id = insertAll(tx, List.of(List.of(record))).getFirst().getFirst();
              storage.dialect().notifyQueues(tx, tx.enqueuedQueues());
              Set<String> readied = Set.copyOf(tx.readiedQueues());
              transaction.afterCommit(() -> storage.signals().wake(readied));
              return id;
            } finally {
              tx.closeStatements();
            }
          });
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw storage.failures().translate(what, e);
    } catch (Exception e) {
      throw storage.failures().translate(what, e);
    }
  }

  /**
   * Inserts the messages of all the enqueues waiting together, in order: few multi-row inserts
   * instead of one pair of statements per caller (256 virtual threads enqueuing one message each,
   * end to end: SQLite 24k to 35k msg/s, PostgreSQL 4.8k to 12k).
   */
  private List<List<Long>> insertAll(WriteContext tx, List<List<byte[]>> enqueues)
      throws SQLException {
    List<byte[]> records;
    if (enqueues.size() == 1) {
      records = enqueues.getFirst();
    } else {
      records = new ArrayList<>();
      enqueues.forEach(records::addAll);
    }
    long now = storage.clock().millis();
    List<Long> ids = new ArrayList<>(records.size());
    for (int from = 0; from < records.size(); from += ROWS_PER_INSERT) {
      List<byte[]> chunk = records.subList(from, Math.min(records.size(), from + ROWS_PER_INSERT));
      ids.addAll(insert(tx, chunk, now));
    }
    tx.enqueued(name);
    List<List<Long>> each = new ArrayList<>(enqueues.size());
    int from = 0;
    for (List<byte[]> enqueue : enqueues) {
      each.add(ids.subList(from, from + enqueue.size()));
      from += enqueue.size();
    }
    return each;
  }

  private List<Long> insert(WriteContext tx, List<byte[]> chunk, long now) throws SQLException {
    PreparedStatement insert =
        tx.prepare(
            WriteContext.rows(
                "INSERT INTO sluice_queue (queue, visible_at, deliveries, dead) VALUES ",
                "(?, ?, 0, 0)",
                chunk.size(),
                " RETURNING id"));
    for (int i = 0, p = 1; i < chunk.size(); i++) {
      insert.setString(p++, name);
      insert.setLong(p++, now);
    }
    List<Long> ids = new ArrayList<>(chunk.size());
    try (ResultSet rs = insert.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    // Ids are given in row order; RETURNING need not list them in it.
    ids.sort(Comparator.naturalOrder());
    PreparedStatement payloads =
        tx.prepare(
            WriteContext.rows(
                "INSERT INTO sluice_queue_payload (id, payload) VALUES ",
                "(?, ?)",
                chunk.size(),
                ""));
    for (int i = 0, p = 1; i < chunk.size(); i++) {
      payloads.setLong(p++, ids.get(i));
      payloads.setBytes(p++, chunk.get(i));
    }
    payloads.executeUpdate();
    return ids;
  }

  /** A taken row before its payload is read (outside the writer); a dead one's reason, if any. */
  private record Taken(long id, byte[] payload, int deliveries, String reason) {
    Taken(long id, byte[] payload, int deliveries) {
      this(id, payload, deliveries, null);
    }
  }

  @Override
  public List<Delivery> take(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    List<Delivery> deliveries;
    boolean metUnreadable;
    // A take that met only unreadable messages takes again at once: ready ones may be behind them.
    do {
      long now = storage.clock().millis();
      long expires = now + options.lockTimeout().toMillis();
      List<Taken> taken =
          storage.write("take from queue '" + name + "'", tx -> takeRows(tx, max, now, expires));
      deliveries = new ArrayList<>(taken.size());
      List<UnreadableMessages.Unreadable> poison = new ArrayList<>(0);
      Instant expiry = Instant.ofEpochMilli(expires);
      for (Taken row : taken) {
        if (row.payload() == null) {
          poison.add(
              new UnreadableMessages.Unreadable(
                  row.id(),
                  row.deliveries(),
                  new CorruptRecordException(
                      RecordFault.MISSING,
                      "message "
                          + row.id()
                          + " of queue '"
                          + name
                          + "' has no stored payload (its sluice_queue_payload row is gone)")));
          continue;
        }
        try {
          Object payload = values.read(row.payload());
          deliveries.add(new Delivery(row.id(), payload, row.deliveries(), owner, expiry));
        } catch (SerializationException e) {
          poison.add(new UnreadableMessages.Unreadable(row.id(), row.deliveries(), e));
        }
      }
      metUnreadable = !poison.isEmpty();
      if (metUnreadable) {
        unreadable.deadLetter(poison, expires);
      }
    } while (deliveries.isEmpty() && metUnreadable);
    deliveries.sort(Comparator.comparingLong(Delivery::id));
    return deliveries;
  }

  private List<Taken> takeRows(WriteContext tx, int max, long now, long expires)
      throws SQLException {
    PreparedStatement statement = tx.prepare(take);
    int limit = options.maxDeliveries();
    List<Taken> taken = new ArrayList<>();
    boolean movedDead = true;
    // Rows that went dead instead of being taken leave room: look again until none did.
    while (movedDead && taken.size() < max) {
      movedDead = false;
      int p = 1;
      statement.setInt(p++, limit);
      statement.setInt(p++, limit);
      statement.setString(p++, owner);
      statement.setInt(p++, limit);
      statement.setLong(p++, expires);
      statement.setInt(p++, limit);
      statement.setLong(p++, expires);
      statement.setInt(p++, limit);
      statement.setString(p++, name);
      statement.setLong(p++, now);
      statement.setInt(p, max - taken.size());
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          if (rs.getInt(3) != 0) {
            movedDead = true;
          } else {
            taken.add(new Taken(rs.getLong(1), null, rs.getInt(2)));
          }
        }
      }
    }
    return taken.isEmpty() ? taken : withPayloads(tx, taken);
  }

  private List<Taken> withPayloads(WriteContext tx, List<Taken> taken) throws SQLException {
    Map<Long, Taken> byId = new HashMap<>(taken.size() * 2);
    for (Taken row : taken) {
      byId.put(row.id(), row);
    }
    PreparedStatement select = tx.prepare(storage.dialect().payloads());
    select.setString(1, storage.dialect().ids(byId.keySet()));
    List<Taken> complete = new ArrayList<>(taken.size());
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        Taken row = byId.remove(rs.getLong(1));
        complete.add(new Taken(row.id(), rs.getBytes(2), row.deliveries()));
      }
    }
    // A message whose payload row is gone comes back without one: dead-lettered at once with the
    // reason, not left locked to lapse again and again until maxDeliveries.
    complete.addAll(byId.values());
    return complete;
  }

  @Override
  public List<Delivery> take(int max, Duration wait) throws InterruptedException {
    Require.atLeastOne(max);
    Require.notNegative(wait, "wait");
    long deadline = System.nanoTime() + wait.toNanos();
    Backoff.Failures failures = UNREACHABLE.failures();
    while (true) {
      long seen = storage.signals().generation(name);
      Duration pause = storage.recheck();
      try {
        List<Delivery> taken = take(max);
        storage.reachable();
        if (!taken.isEmpty()) {
          return taken;
        }
        failures.reset();
      } catch (StoreException e) {
        if (!JdbcFailures.isConnectionFailure(e)) {
          throw e;
        }
        storage.unreachable(e);
        pause = failures.next();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return List.of();
      }
      storage.signals().await(name, seen, Duration.ofNanos(Math.min(left, pause.toNanos())));
    }
  }

  @Override
  public boolean ack(Delivery delivery) {
    return ackAll(List.of(delivery)) == 1;
  }

  @Override
  public int ackAll(Collection<Delivery> deliveries) {
    if (deliveries.isEmpty()) {
      return 0;
    }
    // Deliveries taken together share their lock expiry and mostly their count: one delete per
    // such group, and one for the payloads of all the messages it deleted.
    Map<List<Long>, List<Long>> groups = new LinkedHashMap<>();
    for (Delivery delivery : deliveries) {
      Objects.requireNonNull(delivery.lockExpiry(), "a dead letter cannot be acknowledged");
      groups
          .computeIfAbsent(
              List.of(delivery.lockExpiry().toEpochMilli(), (long) delivery.deliveryCount()),
              k -> new ArrayList<>())
          .add(delivery.id());
    }
    long now = storage.clock().millis();
    String delete = "DELETE FROM sluice_queue WHERE id" + storage.dialect().inIds() + SET_FENCE;
    String deletePayloads = "DELETE FROM sluice_queue_payload WHERE id" + storage.dialect().inIds();
    return storage.write(
        "acknowledge " + deliveries.size() + " message(s) of queue '" + name + "'",
        tx -> {
          PreparedStatement ack = tx.prepare(delete + " RETURNING id");
          List<Long> deleted = new ArrayList<>();
          for (Map.Entry<List<Long>, List<Long>> group : groups.entrySet()) {
            ack.setString(1, storage.dialect().ids(group.getValue()));
            ack.setString(2, owner);
            ack.setLong(3, group.getKey().get(0));
            ack.setLong(4, group.getKey().get(1));
            ack.setLong(5, now);
            try (ResultSet rs = ack.executeQuery()) {
              while (rs.next()) {
                deleted.add(rs.getLong(1));
              }
            }
          }
          if (!deleted.isEmpty()) {
            PreparedStatement payloads = tx.prepare(deletePayloads);
            payloads.setString(1, storage.dialect().ids(deleted));
            payloads.executeUpdate();
          }
          return deleted.size();
        });
  }

  @Override
  public boolean nack(Delivery delivery, Duration delay) {
    Duration after = delay == null ? Duration.ZERO : delay;
    if (after.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative, was " + delay);
    }
    long now = storage.clock().millis();
    return storage.write(
        "nack message " + delivery.id() + " of queue '" + name + "'",
        tx -> {
          PreparedStatement nack = tx.prepare(NACK);
          nack.setLong(1, now + after.toMillis());
          nack.setInt(2, options.maxDeliveries());
          fence(nack, 3, delivery, now);
          boolean held = nack.executeUpdate() == 1;
          if (held) {
            tx.readied(name);
          }
          return held;
        });
  }

  @Override
  public boolean deadLetter(Delivery delivery, String reason) {
    long now = storage.clock().millis();
    return storage.write(
        "dead-letter message " + delivery.id() + " of queue '" + name + "'",
        tx -> {
          PreparedStatement bury = tx.prepare(BURY);
          fence(bury, 1, delivery, now);
          if (bury.executeUpdate() != 1) {
            return false;
          }
          PreparedStatement why = tx.prepare(DEAD_REASON);
          JdbcStorage.bind(why, delivery.id(), reason);
          why.executeUpdate();
          return true;
        });
  }

  @Override
  public boolean release(Delivery delivery) {
    long now = storage.clock().millis();
    return storage.write(
        "release message " + delivery.id() + " of queue '" + name + "'",
        tx -> {
          PreparedStatement release = tx.prepare(RELEASE);
          release.setLong(1, now);
          fence(release, 2, delivery, now);
          boolean held = release.executeUpdate() == 1;
          if (held) {
            tx.readied(name);
          }
          return held;
        });
  }

  /**
   * Sets the fence's parameters from {@code first} on: this owner's lock, as the delivery saw it.
   */
  private void fence(PreparedStatement statement, int first, Delivery delivery, long now)
      throws SQLException {
    Objects.requireNonNull(delivery.lockExpiry(), "a dead letter cannot be acknowledged");
    statement.setLong(first, delivery.id());
    statement.setString(first + 1, owner);
    statement.setLong(first + 2, delivery.lockExpiry().toEpochMilli());
    statement.setInt(first + 3, delivery.deliveryCount());
    statement.setLong(first + 4, now);
  }

  @Override
  public long size() {
    return storage.count(
        "count the messages of queue '" + name + "'",
        SIZE,
        name,
        options.maxDeliveries(),
        storage.clock().millis());
  }

  @Override
  public long deadLetterCount() {
    return storage.count(
        "count the dead letters of queue '" + name + "'",
        "SELECT COUNT(*)" + DEAD_WHERE,
        name,
        options.maxDeliveries(),
        storage.clock().millis());
  }

  @Override
  public List<Delivery> deadLetters(int max) {
    List<Taken> rows =
        storage.query(
            "read the dead letters of queue '" + name + "'",
            "SELECT q.id, (SELECT payload FROM sluice_queue_payload p WHERE p.id = q.id), deliveries,"
                + " (SELECT reason FROM sluice_queue_dead d WHERE d.id = q.id)"
                + DEAD_WHERE
                + " ORDER BY q.id LIMIT ?",
            rs -> new Taken(rs.getLong(1), rs.getBytes(2), rs.getInt(3), rs.getString(4)),
            name,
            options.maxDeliveries(),
            storage.clock().millis(),
            max);
    List<Delivery> dead = new ArrayList<>(rows.size());
    for (Taken row : rows) {
      dead.add(
          UnreadableMessages.deadLetter(
              values, row.id(), row.payload(), row.deliveries(), row.reason()));
    }
    return dead;
  }

  /** A dead letter of this queue, by id: {@code id, queue, maxDeliveries, now}. */
  private static final String DEAD_ONE =
      " WHERE id = ? AND queue = ? AND (dead = 1 OR " + LAPSED_DEAD + ")";

  private static final String REQUEUE =
      "UPDATE sluice_queue SET dead = 0, deliveries = 0, lock_owner = NULL, lock_expires = NULL,"
          + " visible_at = ?"
          + DEAD_ONE;

  @Override
  public boolean requeueDeadLetter(long id) {
    long now = storage.clock().millis();
    return storage.write(
        "requeue dead letter " + id + " of queue '" + name + "'",
        tx -> {
          PreparedStatement requeue = tx.prepare(REQUEUE);
          JdbcStorage.bind(requeue, now, id, name, options.maxDeliveries(), now);
          if (requeue.executeUpdate() != 1) {
            return false;
          }
          PreparedStatement reason = tx.prepare("DELETE FROM sluice_queue_dead WHERE id = ?");
          JdbcStorage.bind(reason, id);
          reason.executeUpdate();
          tx.enqueued(name);
          return true;
        });
  }

  @Override
  public boolean dropDeadLetter(long id) {
    long now = storage.clock().millis();
    return storage.write(
        "drop dead letter " + id + " of queue '" + name + "'",
        tx -> {
          PreparedStatement drop = tx.prepare("DELETE FROM sluice_queue" + DEAD_ONE);
          JdbcStorage.bind(drop, id, name, options.maxDeliveries(), now);
          if (drop.executeUpdate() != 1) {
            return false;
          }
          for (String table : List.of("sluice_queue_payload", "sluice_queue_dead")) {
            PreparedStatement rest = tx.prepare("DELETE FROM " + table + " WHERE id = ?");
            JdbcStorage.bind(rest, id);
            rest.executeUpdate();
          }
          return true;
        });
  }

  @Override
  public String toString() {
    return "JdbcDurableQueue[" + name + " in " + storage.describe() + ", owner " + owner + "]";
  }
}
