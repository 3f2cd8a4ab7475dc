package io.sluice.core.store;

import java.time.Clock;
import java.util.Map;
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
