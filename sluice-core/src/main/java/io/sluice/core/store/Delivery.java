package io.sluice.core.store;

import java.time.Instant;

/**
 * A message taken from a {@link DurableQueue}: locked for its taker until {@link #lockExpiry()},
 * then delivered again unless acknowledged; or one of its dead letters.
 *
 * @param id the message's id in its queue; ids grow in enqueue order
 * @param payload what was enqueued; null for a dead letter whose stored bytes cannot be read
 * @param deliveryCount how many times it has been taken, this time included (1 the first time)
 * @param lockOwner who holds the lock
 * @param lockExpiry when the lock lapses
 * @param deadReason why a dead letter is dead when the queue knows more than its deliveries: its
 *     stored bytes could not be read ({@code checksum mismatch: ...}); null otherwise
 */
public record Delivery(
    long id,
    Object payload,
    int deliveryCount,
    String lockOwner,
    Instant lockExpiry,
    String deadReason) {

  /** A delivery with no dead reason. */
  public Delivery(
      long id, Object payload, int deliveryCount, String lockOwner, Instant lockExpiry) {
    this(id, payload, deliveryCount, lockOwner, lockExpiry, null);
  }

  /** Whether this is at least the second delivery. */
  public boolean redelivered() {
    return deliveryCount > 1;
  }
}
