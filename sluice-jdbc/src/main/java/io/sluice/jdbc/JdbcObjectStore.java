package io.sluice.jdbc;

import io.sluice.core.serialization.StoredValues;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.Require;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An object store in {@code sluice_object_store}, partitioned by the store's name. An entry's
 * expiry is epoch milliseconds on the storage's clock; an expired row is invisible at once and
 * purged by a later put. A bounded store evicts the entries written longest ago in the same
 * transaction as the put that overfilled it. All writes go through the storage's group-commit
 * writer.
 */
final class JdbcObjectStore implements ObjectStore {

  /** Expired rows are purged by a put at most this often (by the storage's clock). */
  private static final long PURGE_INTERVAL_MILLIS = 1_000;

  private static final String LIVE = " AND (expires_at IS NULL OR expires_at > ?)";

  /**
   * A bounded store moves a rewritten entry to the end of the eviction order. An unbounded one
   * evicts nothing, so it leaves the written sequence alone: the row is rewritten in place, and
   * neither database touches the sequence's index (a second random page per put on SQLite; a
   * heap-only update on PostgreSQL, room in the page allowing, when the expiry does not change
   * either). A store opened bounded later evicts the entries written while it was unbounded by
   * their first write.
   */
  private static final String UPSERT_BOUNDED =
      " ON CONFLICT (store, key) DO UPDATE SET value = excluded.value,"
          + " expires_at = excluded.expires_at, written_seq = excluded.written_seq";

  private static final String UPSERT_UNBOUNDED =
      " ON CONFLICT (store, key) DO UPDATE SET value = excluded.value,"
          + " expires_at = excluded.expires_at";

  /** Rows per multi-row upsert: few statements, well under every driver's parameter limit. */
  private static final int ROWS_PER_PUT = 500;

  private static final String PURGE =
      "DELETE FROM sluice_object_store WHERE store = ? AND expires_at <= ?";

  private static final String MAX_SEQ =
      "SELECT COALESCE(MAX(written_seq), 0) FROM sluice_object_store WHERE store = ?";

  private static final String COUNT_ALL =
      "SELECT COUNT(*) FROM sluice_object_store WHERE store = ?";

  private static final String EVICT =
      "DELETE FROM sluice_object_store WHERE store = ? AND key IN (SELECT key FROM"
          + " sluice_object_store WHERE store = ? ORDER BY written_seq, key LIMIT ?)";

  private final JdbcStorage storage;
  private final String name;
  private final ObjectStoreOptions options;
  private final StoredValues values;
  private final AtomicLong nextPurge = new AtomicLong(Long.MIN_VALUE);
  private final GroupCommitWriter.SharedWork<Put, Void> puts = this::putAll;

  JdbcObjectStore(
      JdbcStorage storage, String name, ObjectStoreOptions options, StoredValues values) {
    this.storage = storage;
    this.name = name;
    this.options = options;
    this.values = values;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void put(String key, Object value) {
    put(key, value, options.ttl());
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    Require.nonBlank(key, "key");
    Require.value(value, key);
    Require.ttl(ttl);
    byte[] record = values.write(value);
    long now = storage.clock().millis();
    Long expires = ttl == null ? null : now + ttl.toMillis();
    storage.write(
        "put key '" + key + "' into object store '" + name + "'",
        puts,
        new Put(key, record, expires));
  }

  /** One caller's put, waiting to share a transaction with the others. */
  private record Put(String key, byte[] record, Long expires) {}

  /**
   * Writes the puts of all the callers waiting together: a purge when one is due, then multi-row
   * upserts (the last put of a key wins, as if they ran one after the other), then eviction. The
   * written sequence continues from the store's highest, once per transaction.
   */
  private List<Void> putAll(WriteContext tx, List<Put> waiting) throws SQLException {
    long now = storage.clock().millis();
    if (options.maxEntries() > 0 || purgeDue(now)) {
      PreparedStatement delete = tx.prepare(PURGE);
      delete.setString(1, name);
      delete.setLong(2, now);
      delete.executeUpdate();
    }
    Map<String, Put> last = new LinkedHashMap<>();
    for (Put put : waiting) {
      last.remove(put.key());
      last.put(put.key(), put);
    }
    List<Put> rows = List.copyOf(last.values());
    long seq = tx.number(MAX_SEQ, name);
    for (int from = 0; from < rows.size(); from += ROWS_PER_PUT) {
      List<Put> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_PUT));
      PreparedStatement upsert =
          tx.prepare(
              WriteContext.rows(
                  "INSERT INTO sluice_object_store (store, key, value, expires_at, written_seq)"
                      + " VALUES ",
                  "(?, ?, ?, ?, ?)",
                  chunk.size(),
                  options.maxEntries() > 0 ? UPSERT_BOUNDED : UPSERT_UNBOUNDED));
      int p = 1;
      for (Put put : chunk) {
        upsert.setString(p++, name);
        upsert.setString(p++, put.key());
        upsert.setBytes(p++, put.record());
        if (put.expires() == null) {
          upsert.setNull(p++, Types.BIGINT);
        } else {
          upsert.setLong(p++, put.expires());
        }
        upsert.setLong(p++, ++seq);
      }
      upsert.executeUpdate();
    }
    if (options.maxEntries() > 0) {
      evictBeyondBound(tx);
    }
    return Collections.nCopies(waiting.size(), null);
  }

  private boolean purgeDue(long now) {
    long due = nextPurge.get();
    return now >= due && nextPurge.compareAndSet(due, now + PURGE_INTERVAL_MILLIS);
  }

  private void evictBeyondBound(WriteContext tx) throws SQLException {
    long entries = tx.number(COUNT_ALL, name);
    long over = entries - options.maxEntries();
    if (over > 0) {
      PreparedStatement evict = tx.prepare(EVICT);
      evict.setString(1, name);
      evict.setString(2, name);
      evict.setLong(3, over);
      evict.executeUpdate();
    }
  }

  @Override
  public Optional<Object> get(String key) {
    Require.nonBlank(key, "key");
    List<byte[]> record =
        storage.query(
            "get key '" + key + "' from object store '" + name + "'",
            "SELECT value FROM sluice_object_store WHERE store = ? AND key = ?" + LIVE,
            rs -> rs.getBytes(1),
            name,
            key,
            storage.clock().millis());
    if (record.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(values.read(record.getFirst()));
    } catch (SerializationException e) {
      // Only this entry is lost; say which, and how to get rid of it.
      throw new SerializationException(
          "Key '"
              + key
              + "' of object store '"
              + name
              + "' cannot be read ("
              + e.fault().label()
              + "): "
              + e.getMessage()
              + ". Put a new value under it or remove it",
          e);
    }
  }

  @Override
  public boolean contains(String key) {
    Require.nonBlank(key, "key");
    return storage.count(
            "look up key '" + key + "' in object store '" + name + "'",
            "SELECT COUNT(*) FROM sluice_object_store WHERE store = ? AND key = ?" + LIVE,
            name,
            key,
            storage.clock().millis())
        > 0;
  }

  @Override
  public boolean remove(String key) {
    Require.nonBlank(key, "key");
    long now = storage.clock().millis();
    return storage.write(
        "remove key '" + key + "' from object store '" + name + "'",
        tx -> {
          PreparedStatement remove =
              tx.prepare(
                  "DELETE FROM sluice_object_store WHERE store = ? AND key = ?"
                      + " RETURNING expires_at");
          remove.setString(1, name);
          remove.setString(2, key);
          boolean live = false;
          try (ResultSet rs = remove.executeQuery()) {
            while (rs.next()) {
              long expires = rs.getLong(1);
              live |= rs.wasNull() || expires > now;
            }
          }
          return live;
        });
  }

  @Override
  public List<String> keys() {
    List<String> keys =
        storage.query(
            "list the keys of object store '" + name + "'",
            "SELECT key FROM sluice_object_store WHERE store = ?" + LIVE,
            rs -> rs.getString(1),
            name,
            storage.clock().millis());
    // Sorted here: database collations need not order strings as Java does.
    keys.sort(null);
    return keys;
  }

  @Override
  public long size() {
    return storage.count(
        "count the entries of object store '" + name + "'",
        "SELECT COUNT(*) FROM sluice_object_store WHERE store = ?" + LIVE,
        name,
        storage.clock().millis());
  }

  @Override
  public void clear() {
    storage.write(
        "clear object store '" + name + "'",
        tx -> {
          PreparedStatement clear = tx.prepare("DELETE FROM sluice_object_store WHERE store = ?");
          clear.setString(1, name);
          clear.executeUpdate();
          return null;
        });
  }

  @Override
  public String toString() {
    return "JdbcObjectStore[" + name + " in " + storage.describe() + "]";
  }
}
