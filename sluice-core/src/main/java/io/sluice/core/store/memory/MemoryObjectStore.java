package io.sluice.core.store.memory;

import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.Require;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A handle on an object store kept in memory. Values are kept as they are, not serialized. The
 * entries live in {@link Entries}, shared by every handle of the store's name; each handle applies
 * its own options to its puts.
 */
final class MemoryObjectStore implements ObjectStore {

  /** The entries under one store name; guarded by itself. */
  static final class Entries {
    // In write order, oldest first: a full store evicts the first, and a put moves its key last.
    private final Map<String, Entry> byWriteOrder = new LinkedHashMap<>();
  }

  private record Entry(Object value, Instant expiresAt) {
    boolean liveAt(Instant now) {
      return expiresAt == null || now.isBefore(expiresAt);
    }
  }

  private final String name;
  private final ObjectStoreOptions options;
  private final Entries entries;
  private final MemoryStorage storage;

  MemoryObjectStore(
      String name, ObjectStoreOptions options, Entries entries, MemoryStorage storage) {
    this.name = name;
    this.options = options;
    this.entries = entries;
    this.storage = storage;
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
    Instant now = now();
    synchronized (entries) {
      Map<String, Entry> map = entries.byWriteOrder;
      if (map.remove(key) == null && options.maxEntries() > 0) {
        purgeExpired(now);
        Iterator<String> oldest = map.keySet().iterator();
        while (map.size() >= options.maxEntries()) {
          oldest.next();
          oldest.remove();
        }
      }
      map.put(key, new Entry(value, ttl == null ? null : now.plus(ttl)));
    }
  }

  @Override
  public Optional<Object> get(String key) {
    Require.nonBlank(key, "key");
    Instant now = now();
    synchronized (entries) {
      Entry entry = entries.byWriteOrder.get(key);
      if (entry == null) {
        return Optional.empty();
      }
      if (!entry.liveAt(now)) {
        entries.byWriteOrder.remove(key);
        return Optional.empty();
      }
      return Optional.of(entry.value());
    }
  }

  @Override
  public boolean contains(String key) {
    return get(key).isPresent();
  }

  @Override
  public boolean remove(String key) {
    Require.nonBlank(key, "key");
    Instant now = now();
    synchronized (entries) {
      Entry removed = entries.byWriteOrder.remove(key);
      return removed != null && removed.liveAt(now);
    }
  }

  @Override
  public List<String> keys() {
    Instant now = now();
    List<String> keys;
    synchronized (entries) {
      purgeExpired(now);
      keys = new ArrayList<>(entries.byWriteOrder.keySet());
    }
    keys.sort(null);
    return List.copyOf(keys);
  }

  @Override
  public long size() {
    Instant now = now();
    synchronized (entries) {
      purgeExpired(now);
      return entries.byWriteOrder.size();
    }
  }

  @Override
  public void clear() {
    storage.checkOpen();
    synchronized (entries) {
      entries.byWriteOrder.clear();
    }
  }

  @Override
  public String toString() {
    return "memory object store '" + name + "' " + options;
  }

  private Instant now() {
    storage.checkOpen();
    return storage.clock().instant();
  }

  private void purgeExpired(Instant now) {
    entries.byWriteOrder.values().removeIf(entry -> !entry.liveAt(now));
  }
}
