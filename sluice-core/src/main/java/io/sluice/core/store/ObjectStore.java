package io.sluice.core.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A named key-value store: what a flow keeps between messages (idempotency keys, watermarks,
 * tokens). Stores with different names never see each other's keys, even when they share one
 * database. Values go through the application's serializer with the self-describing header (the
 * in-memory store keeps them as they are), so a store written by one serializer stays readable
 * after the default changes.
 *
 * <p>An entry put with a time to live is gone once it has lived that long: {@link #get} no longer
 * returns it, {@link #contains} and {@link #keys} no longer count it, whether or not it has been
 * purged yet. Thread-safe. A write that returned has been committed by the store (for the SQLite
 * and PostgreSQL stores: durably, see docs/configuration.md for what survives a power loss).
 */
public interface ObjectStore extends AutoCloseable {

  /** The store's name; its partition of the storage. */
  String name();

  /** Puts {@code value} under {@code key}, replacing what was there, with the store's TTL. */
  void put(String key, Object value);

  /**
   * Puts {@code value} under {@code key}, replacing what was there, living {@code ttl} (null: for
   * ever).
   */
  void put(String key, Object value, Duration ttl);

  /** The value under {@code key}, or empty when there is none or it has expired. */
  Optional<Object> get(String key);

  /** Whether a live value is under {@code key}. */
  boolean contains(String key);

  /** Removes the value under {@code key}; true when there was a live one. */
  boolean remove(String key);

  /** The live keys, in ascending order. */
  List<String> keys();

  /** How many live entries the store holds. */
  long size();

  /** Removes every entry of this store (other stores keep theirs). */
  void clear();

  /** Closes this handle; the entries stay in the storage. */
  @Override
  default void close() {}
}
