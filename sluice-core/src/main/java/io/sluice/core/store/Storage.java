package io.sluice.core.store;

/**
 * Where an application keeps what it must not lose: its object stores and durable queues, in one
 * database (or in memory). Handles with the same name share their entries; stores and queues of
 * different names never see each other's. Each handle applies the options it was opened with (see
 * {@link QueueOptions}, {@link ObjectStoreOptions}). Open one with {@link Storages#open}.
 *
 * <p>An embedded SQLite store is owned by one process (it holds a lock file beside the database):
 * opening it while another process or storage has it open fails with a {@link StoreException}. As
 * its owner, a process opening it hands back at once the messages that were locked when it was last
 * open, since their takers are gone. A PostgreSQL store is shared by many nodes, so there a message
 * locked by a gone taker is delivered again when its lock lapses.
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
