package io.sluice.jdbc;

import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
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

  private static final String PUT =
      "INSERT INTO sluice_object_store (store, key, value, expires_at, written_seq)"
          + " VALUES (?, ?, ?, ?,"
          + " (SELECT COALESCE(MAX(written_seq), 0) + 1 FROM sluice_object_store WHERE store = ?))"
          + " ON CONFLICT (store, key) DO UPDATE SET value = excluded.value,"
          + " expires_at = excluded.expires_at, written_seq = excluded.written_seq";

  private static final String PURGE =
      "DELETE FROM sluice_object_store WHERE store = ? AND expires_at <= ?";

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
    checkKey(key);
    if (value == null) {
      throw new IllegalArgumentException(
          "value must not be null; to remove the entry under '" + key + "' use remove(key)");
    }
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw new IllegalArgumentException("ttl must be a positive duration, was " + ttl);
    }
    byte[] record = values.write(value);
    long now = storage.clock().millis();
    Long expires = ttl == null ? null : now + ttl.toMillis();
    boolean purge = options.maxEntries() > 0 || purgeDue(now);
    storage.write(
        "put key '" + key + "' into object store '" + name + "'",
        tx -> {
          if (purge) {
            PreparedStatement delete = tx.prepare(PURGE);
            delete.setString(1, name);
            delete.setLong(2, now);
            delete.executeUpdate();
          }
          PreparedStatement put = tx.prepare(PUT);
          put.setString(1, name);
          put.setString(2, key);
          put.setBytes(3, record);
          if (expires == null) {
            put.setNull(4, Types.BIGINT);
          } else {
            put.setLong(4, expires);
          }
          put.setString(5, name);
          put.executeUpdate();
          if (options.maxEntries() > 0) {
            evictBeyondBound(tx);
          }
          return null;
        });
  }

  private static void checkKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isBlank()) {
      throw new IllegalArgumentException("key must not be blank, was '" + key + "'");
    }
  }

  private boolean purgeDue(long now) {
    long due = nextPurge.get();
    return now >= due && nextPurge.compareAndSet(due, now + PURGE_INTERVAL_MILLIS);
  }

  private void evictBeyondBound(WriteContext tx) throws SQLException {
    PreparedStatement count = tx.prepare(COUNT_ALL);
    count.setString(1, name);
    long entries;
    try (ResultSet rs = count.executeQuery()) {
      rs.next();
      entries = rs.getLong(1);
    }
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
    Objects.requireNonNull(key, "key");
    List<byte[]> record =
        storage.query(
            "get key '" + key + "' from object store '" + name + "'",
            "SELECT value FROM sluice_object_store WHERE store = ? AND key = ?" + LIVE,
            rs -> rs.getBytes(1),
            name,
            key,
            storage.clock().millis());
    return record.isEmpty()
        ? Optional.empty()
        : Optional.ofNullable(values.read(record.getFirst()));
  }

  @Override
  public boolean contains(String key) {
    Objects.requireNonNull(key, "key");
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
    Objects.requireNonNull(key, "key");
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
