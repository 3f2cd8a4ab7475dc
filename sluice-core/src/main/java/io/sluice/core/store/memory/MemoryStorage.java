package io.sluice.core.store.memory;

import io.sluice.core.ConfigProblems;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Require;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A storage in the process's memory: object stores and durable queues that keep their values as
 * they are (nothing is serialized) and lose everything when the process ends. For tests,
 * development and flows that need no durability. Handles with the same name share their entries;
 * {@link #close()} closes every handle, whose later calls fail with an {@link
 * IllegalStateException}. Thread-safe.
 */
public final class MemoryStorage implements Storage {

  private final Clock clock;
  private final Map<String, MemoryObjectStore.Entries> stores = new ConcurrentHashMap<>();
  private final Map<String, MemoryDurableQueue.Messages> queues = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * The rules of a memory store's configuration: it takes no URL, no TLS and no setting of another
   * type; the other SQLite and PostgreSQL settings, which it has no use for, are ignored as they
   * always were.
   */
  static void check(StorageConfig config, ConfigProblems problems) {
    problems.check(
        config.url() == null,
        "sluice.store.url",
        config.maskedUrl(),
        "is only for a postgresql store; this store is memory");
    problems.check(
        config.sslMode() == null && config.sslRootCert() == null && config.sslCert() == null,
        "sluice.store.sslMode",
        config.sslMode(),
        "and the other ssl settings are only for a postgresql store");
    config.refuseSettingsOtherThan(Set.of(), problems);
  }

  /**
   * An empty storage whose TTLs, lock expiries and redelivery delays are measured on {@code clock}.
   */
  public MemoryStorage(Clock clock) {
    this.clock = Require.nonNull(clock, "clock");
  }

  /** The object store with this name, created empty on first use; fails once closed. */
  @Override
  public ObjectStore objectStore(String name, ObjectStoreOptions options) {
    Require.nonBlank(name, "object store name");
    Require.nonNull(options, "options (ObjectStoreOptions.DEFAULTS for the defaults)");
    checkOpen();
    return new MemoryObjectStore(
        name, options, stores.computeIfAbsent(name, n -> new MemoryObjectStore.Entries()), this);
  }

  /** The durable queue with this name, created empty on first use; fails once closed. */
  @Override
  public DurableQueue queue(String name, QueueOptions options) {
    Require.nonBlank(name, "queue name");
    Require.nonNull(options, "options (QueueOptions.DEFAULTS for the defaults)");
    checkOpen();
    return new MemoryDurableQueue(
        name, options, queues.computeIfAbsent(name, n -> new MemoryDurableQueue.Messages()), this);
  }

  /** {@code memory (nothing survives the process)}. */
  @Override
  public String describe() {
    return "memory (nothing survives the process)";
  }

  /** False: nothing survives the process. */
  @Override
  public boolean durable() {
    return false;
  }

  /**
   * Drops every entry and message and closes every handle: their later calls, and takes waiting
   * now, fail with an {@link IllegalStateException}.
   */
  @Override
  public void close() {
    closed = true;
    queues.values().forEach(MemoryDurableQueue.Messages::wakeAll);
    queues.clear();
    stores.clear();
  }

  @Override
  public String toString() {
    return describe();
  }

  Clock clock() {
    return clock;
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("storage is closed");
    }
  }
}
