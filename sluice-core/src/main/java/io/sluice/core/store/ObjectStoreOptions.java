package io.sluice.core.store;

import java.time.Duration;

/**
 * How an object store behaves. Options belong to the handle that was opened with them, not to the
 * store: each handle applies its own TTL, bound and serializer to its own puts. Handles of one
 * store name should use the same options, or the entries are kept differently by whichever handle
 * wrote them.
 *
 * @param ttl how long an entry lives unless its put says otherwise; null for ever
 * @param maxEntries the most entries the store keeps (0: no bound); putting a new key into a full
 *     store evicts the entry that was written longest ago (in a SQLite or PostgreSQL store, an
 *     entry rewritten through a handle without a bound keeps the place of its first write)
 * @param serializer the named serializer values are written with; null for the application's
 *     default (values are always read with whatever wrote them)
 */
public record ObjectStoreOptions(Duration ttl, int maxEntries, String serializer) {

  /** No TTL, no bound, the default serializer. */
  public static final ObjectStoreOptions DEFAULTS = new ObjectStoreOptions(null, 0, null);

  /** Checks the options. */
  public ObjectStoreOptions {
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw new IllegalArgumentException("ttl must be a positive duration, was " + ttl);
    }
    if (maxEntries < 0) {
      throw new IllegalArgumentException(
          "maxEntries must be 0 (no bound) or more, was " + maxEntries);
    }
  }

  /** These options with this TTL. */
  public ObjectStoreOptions withTtl(Duration value) {
    return new ObjectStoreOptions(value, maxEntries, serializer);
  }

  /** These options with this bound. */
  public ObjectStoreOptions withMaxEntries(int value) {
    return new ObjectStoreOptions(ttl, value, serializer);
  }

  /** These options with this named serializer. */
  public ObjectStoreOptions withSerializer(String value) {
    return new ObjectStoreOptions(ttl, maxEntries, value);
  }
}
