package io.sluice.core.store;

/**
 * Where an application keeps what it must not lose: its object stores and durable queues, in one
 * database (or in memory). Handles with the same name share their entries; stores and queues of
 * different names never see each other's. Open one with {@link Storages#open}.
 */
public interface Storage extends AutoCloseable {

  /** The object store with this name, created empty on first use. */
  ObjectStore objectStore(String name, ObjectStoreOptions options);

  /** The durable queue with this name, created empty on first use. */
  DurableQueue queue(String name, QueueOptions options);

  /**
   * One line saying what this storage is, for the start-up log: its kind and file or URL, with any
   * password masked.
   */
  String describe();

  /** Whether what it keeps survives the process (false for the in-memory storage). */
  boolean durable();

  /** Closes the storage and every handle it gave; what was committed stays. */
  @Override
  void close();
}
