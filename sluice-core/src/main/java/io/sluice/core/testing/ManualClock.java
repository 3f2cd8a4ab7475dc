package io.sluice.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when a test moves it. Thread-safe. */
public final class ManualClock extends Clock {

  private final ZoneId zone;
  private volatile Instant now;

  /** A clock at {@code start}, in UTC. */
  public ManualClock(Instant start) {
    this(start, ZoneOffset.UTC);
  }

  /** A clock at {@code start} in {@code zone}. */
  public ManualClock(Instant start, ZoneId zone) {
    this.now = start;
    this.zone = zone;
  }

  /** Moves the clock forward. */
  public synchronized void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("a manual clock only moves forward; asked to move " + by);
    }
    now = now.plus(by);
  }

  /** Sets the clock to an instant not before the current one. */
  public synchronized void set(Instant instant) {
    if (instant.isBefore(now)) {
      throw new IllegalArgumentException(
          "a manual clock only moves forward: " + instant + " is before " + now);
    }
    now = instant;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId newZone) {
    return new ManualClock(now, newZone);
  }
}
