package io.sluice.core.store;

import io.sluice.core.ConfigProblems;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a durable queue delivers. Options belong to the handle that was opened with them, not to the
 * queue: each handle takes, locks and dead-letters by its own. Handles of one queue name should use
 * the same lock timeout, deliveries and serializer (the owner aside), or the queue's messages are
 * treated differently by whichever handle touches them.
 *
 * @param lockTimeout how long a taken message stays locked to its taker before it is delivered
 *     again (30 s by default)
 * @param maxDeliveries how many times a message is taken before it goes to the dead letters instead
 *     (5 by default)
 * @param owner who this handle takes messages as; null for one made up per handle (see {@link
 *     #ownerOrMadeUp()})
 * @param serializer the named serializer payloads are written with; null for the application's
 *     default
 */
public record QueueOptions(
    Duration lockTimeout, int maxDeliveries, String owner, String serializer) {

  /** The lock timeout unless set: 30 s. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(30);

  /** The most deliveries before dead-letter: ten thousand. */
  public static final int MAX_DELIVERIES = 10_000;

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
    if (lockTimeout.compareTo(ConfigProblems.MAX_DURATION) > 0) {
      throw new IllegalArgumentException("lockTimeout must be at most 24h, was " + lockTimeout);
    }
    if (maxDeliveries < 1 || maxDeliveries > MAX_DELIVERIES) {
      throw new IllegalArgumentException(
          "maxDeliveries must be from 1 to " + MAX_DELIVERIES + ", was " + maxDeliveries);
    }
    if (owner != null && owner.isBlank()) {
      throw new IllegalArgumentException(
          "owner must not be blank, was '" + owner + "'; leave it null for one made up per handle");
    }
  }

  /**
   * The owner a handle with these options takes messages as: {@link #owner()} when set, otherwise a
   * new one made up on each call from this host's name, this process's id and a random part ({@code
   * host-1234-9f3a0c1e}), so that two handles never share a lock owner by accident. Every storage
   * makes up its owners this way.
   */
  public String ownerOrMadeUp() {
    if (owner != null) {
      return owner;
    }
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return Host.NAME + "-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
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

  /** This host's name, looked up once, when the first owner is made up. */
  private static final class Host {
    static final String NAME = lookUp();

    private static String lookUp() {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "localhost";
      }
    }
  }
}
