package io.sluice.core.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A semaphore whose number of permits moves by itself: the adaptive concurrency limit of one flow's
 * BLOCKING_IO work.
 *
 * <p>It starts in slow start: while calls are using most of the limit and their latency stays near
 * the best seen, every success adds one permit (the limit doubles each round trip, as TCP's window
 * does), and up to {@value #SLOW_START_STEP} while callers wait for a permit, so a burst far larger
 * than the limit is met within a few round trips (the limit quadruples per round trip) without
 * running past the callers actually waiting. A throttling reply or a timeout ({@link
 * Outcome#DROPPED}) halves the limit, at most once per round trip, and ends slow start; latency
 * more than twice the baseline shrinks it by a tenth. After slow start the limit grows by one per
 * round trip of successes while latency holds. The baseline decays slowly toward recent latency so
 * a service that got slower for good is not punished forever.
 */
final class AdaptiveLimiter {

  /** How a call that held a permit ended. */
  enum Outcome {
    /** It completed; its latency counts. */
    SUCCESS,
    /** It was throttled or timed out: a sign of overload. */
    DROPPED,
    /** It failed for a reason that says nothing about load. */
    IGNORED
  }

  /** The most permits one success adds in slow start, when callers wait for a permit. */
  static final int SLOW_START_STEP = 3;

  /** What {@link #acquire} returns when no permit came in time (nanoTime may be negative). */
  static final long TIMED_OUT = Long.MIN_VALUE;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private final int minLimit;
  private final int maxLimit;
  private final LongSupplier nanoTime;

  private int limit;
  private int inFlight;
  private boolean slowStart = true;
  private double baselineNanos = Double.NaN;
  private long lastDecreaseNanos;
  private boolean decreased;
  private double growthCredit;
  private long waiting;

  AdaptiveLimiter(int initialLimit, int maxLimit) {
    this(initialLimit, maxLimit, System::nanoTime);
  }

  /** A limiter reading time from {@code nanoTime}, which tests drive by hand. */
  AdaptiveLimiter(int initialLimit, int maxLimit, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.minLimit = 1;
    this.maxLimit = maxLimit;
    this.limit = initialLimit;
  }

  /** Waits for a permit; returns the nanoTime it was granted at, or {@link #TIMED_OUT}. */
  long acquire(long timeout, TimeUnit unit) throws InterruptedException {
    long remaining = unit.toNanos(timeout);
    lock.lock();
    try {
      waiting++;
      try {
        while (inFlight >= limit) {
          if (remaining <= 0) {
            return TIMED_OUT;
          }
          remaining = released.awaitNanos(remaining);
        }
      } finally {
        waiting--;
      }
      inFlight++;
      return nanoTime.getAsLong();
    } finally {
      lock.unlock();
    }
  }

  /** Returns a permit granted at {@code grantedAt}, reporting how the call ended. */
  void release(long grantedAt, Outcome outcome) {
    long now = nanoTime.getAsLong();
    lock.lock();
    try {
      int usedAtRelease = inFlight;
      inFlight--;
      adjust(now - grantedAt, now, outcome, usedAtRelease);
      // The limit may have grown by more than one: wake everyone who can now proceed.
      released.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void adjust(long latency, long now, Outcome outcome, int used) {
    switch (outcome) {
      case IGNORED -> {
        return;
      }
      case DROPPED -> {
        decrease(now, 0.5, latency);
        return;
      }
      case SUCCESS -> {}
    }
    if (Double.isNaN(baselineNanos) || latency < baselineNanos) {
      baselineNanos = latency;
    } else {
      baselineNanos += (latency - baselineNanos) * 0.001;
    }
    if (latency > 2 * baselineNanos) {
      decrease(now, 0.9, latency);
      return;
    }
    // Grow only when the limit is what holds calls back, not when demand is low.
    boolean saturated = used * 2 >= limit || waiting > 0;
    if (!saturated || limit >= maxLimit) {
      return;
    }
    if (slowStart) {
      limit = (int) Math.min(maxLimit, limit + Math.clamp(waiting, 1, SLOW_START_STEP));
    } else {
      growthCredit += 1.0 / limit;
      if (growthCredit >= 1.0) {
        growthCredit -= 1.0;
        limit++;
      }
    }
  }

  private void decrease(long now, double factor, long latency) {
    slowStart = false;
    // Before any success the call that just ended is the only measure of a round trip; without
    // it, a burst of throttled first calls would halve the limit once per call, down to 1.
    double roundTrip = Double.isNaN(baselineNanos) ? latency : baselineNanos;
    if (decreased && now - lastDecreaseNanos < roundTrip) {
      return;
    }
    decreased = true;
    lastDecreaseNanos = now;
    limit = Math.max(minLimit, (int) (limit * factor));
  }

  int limit() {
    lock.lock();
    try {
      return limit;
    } finally {
      lock.unlock();
    }
  }

  long waiting() {
    lock.lock();
    try {
      return waiting;
    } finally {
      lock.unlock();
    }
  }

  int inFlight() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }
}
