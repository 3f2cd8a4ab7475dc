package io.sluice.core.store;

import java.time.Duration;

/**
 * How a durable queue delivers.
 *
 * @param lockTimeout how long a taken message stays locked to its taker before it is delivered
 *     again (30 s by default)
 * @param maxDeliveries how many times a message is taken before it goes to the dead letters instead
 *     (5 by default)
 * @param owner who this handle takes messages as; null for one made up per handle (node and a
 *     random part)
 * @param serializer the named serializer payloads are written with; null for the application's
 *     default
 */
public record QueueOptions(
    Duration lockTimeout, int maxDeliveries, String owner, String serializer) {

  /** The lock timeout unless set: 30 s. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

  /** The deliveries before dead-letter unless set: 5. */
  public static final int DEFAULT_MAX_DELIVERIES = 5;

  /** 30 s locks, 5 deliveries, an owner made up per handle, the default serializer. */
  public static final QueueOptions DEFAULTS =
      new QueueOptions(DEFAULT_LOCK_TIMEOUT, DEFAULT_MAX_DELIVERIES, null, null);

  /** Checks the options. */
  public QueueOptions {
    if (lockTimeout == null || lockTimeout.isNegative() || lockTimeout.isZero()) {
      throw new IllegalArgumentException(
          "lockTimeout must be a positive duration, was " + lockTimeout);
    }
    if (maxDeliveries < 1) {
      throw new IllegalArgumentException("maxDeliveries must be at least 1, was " + maxDeliveries);
    }
  }

  /** These options with this lock timeout. */
  public QueueOptions withLockTimeout(Duration value) {
    return new QueueOptions(value, maxDeliveries, owner, serializer);
  }

  /** These options with this many deliveries before dead-letter. */
  public QueueOptions withMaxDeliveries(int value) {
    return new QueueOptions(lockTimeout, value, owner, serializer);
  }

  /** These options with this owner. */
  public QueueOptions withOwner(String value) {
    return new QueueOptions(lockTimeout, maxDeliveries, value, serializer);
  }

  /** These options with this named serializer. */
  public QueueOptions withSerializer(String value) {
    return new QueueOptions(lockTimeout, maxDeliveries, owner, value);
  }
}
