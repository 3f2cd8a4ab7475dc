package io.sluice.core.store;

import java.time.Instant;

/**
 * A message taken from a {@link DurableQueue}: locked for its taker until {@link #lockExpiry()},
 * then delivered again unless acknowledged.
 *
 * @param id the message's id in its queue; ids grow in enqueue order
 * @param payload what was enqueued
 * @param deliveryCount how many times it has been taken, this time included (1 the first time)
 * @param lockOwner who holds the lock
 * @param lockExpiry when the lock lapses
 */
public record Delivery(
    long id, Object payload, int deliveryCount, String lockOwner, Instant lockExpiry) {

  /** Whether this is at least the second delivery. */
  public boolean redelivered() {
    return deliveryCount > 1;
  }
}
