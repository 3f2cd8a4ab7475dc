package io.sluice.core;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A growing wait, capped: the wait before attempt {@code n} (0 for the first) is {@code initial ×
 * factor^n} in milliseconds, rounded, and {@code cap} once that reaches it. Every wait that grows
 * in Sluice is one: the PostgreSQL listener's reconnect, a queue's take while its store is away, a
 * job node's acquisition, a batch step's throttled call, a failed job's retry. The arithmetic is in
 * {@code double}, so a huge attempt number (10,000, {@link Integer#MAX_VALUE}) gives the cap, never
 * a negative or overflowed wait; a negative one counts as 0.
 *
 * <p>{@link #delay(int, RandomGenerator)} spreads a wait with the {@link Jitter} (so that callers
 * that failed together do not try again together); {@link #delay(int)} never does. Immutable.
 *
 * @param initial the wait before the first attempt; zero or more (only its milliseconds count)
 * @param factor how much each attempt's wait grows: at least 1 (1: always {@code initial})
 * @param cap the longest wait, returned as it is once the growing wait reaches it
 * @param jitter how a wait is spread when a random generator is given
 */
public record Backoff(Duration initial, double factor, Duration cap, Jitter jitter) {

  /** Checks the values: durations not negative, a factor of 1 or more. */
  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(cap, "cap");
    Objects.requireNonNull(jitter, "jitter");
    if (initial.isNegative() || cap.isNegative()) {
      throw new IllegalArgumentException(
          "a backoff's initial wait and cap must not be negative, were " + initial + " and " + cap);
    }
    if (!(factor >= 1) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("a backoff's factor must be 1 or more, was " + factor);
    }
  }

  /** A backoff without jitter. */
  public Backoff(Duration initial, double factor, Duration cap) {
    this(initial, factor, cap, Jitter.NONE);
  }

  /** {@code initial} doubled at each attempt up to {@code cap}, without jitter. */
  public static Backoff doubling(Duration initial, Duration cap) {
    return new Backoff(initial, 2, cap);
  }

  /** This backoff with {@code jitter}. */
  public Backoff withJitter(Jitter jitter) {
    return new Backoff(initial, factor, cap, jitter);
  }

  /** The wait before attempt {@code attempt} (0 for the first): never negative, at most the cap. */
  public Duration delay(int attempt) {
    double millis = initial.toMillis() * Math.pow(factor, Math.max(0, attempt));
    return millis >= cap.toMillis() ? cap : Duration.ofMillis(Math.round(millis));
  }

  /** The wait before attempt {@code attempt}, spread by the jitter with {@code random}. */
  public Duration delay(int attempt, RandomGenerator random) {
    return jitter.apply(delay(attempt), random);
  }

  /** A count of failures in a row waiting this backoff's delays, starting at none. */
  public Failures failures() {
    return new Failures(this);
  }

  /**
   * One caller's failures in a row: each waits the backoff's next delay, and a success starts them
   * again from the first. The count stops at {@link Integer#MAX_VALUE}, never wrapping. Not
   * thread-safe: a loop's own.
   */
  public static final class Failures {
    private final Backoff backoff;
    private int count;

    private Failures(Backoff backoff) {
      this.backoff = backoff;
    }

    /** Counts one more failure and returns its wait (the first waits the initial delay). */
    public Duration next() {
      Duration wait = backoff.delay(count);
      if (count < Integer.MAX_VALUE) {
        count++;
      }
      return wait;
    }

    /** A success: the next failure waits the initial delay again. */
    public void reset() {
      count = 0;
    }

    /** How many failures in a row were counted. */
    public int count() {
      return count;
    }
  }

  /** How a wait is spread so that callers that failed together do not try again together. */
  public sealed interface Jitter {

    /** The wait as it is. */
    Jitter NONE = new None();

    /** A wait drawn evenly from half the wait to the whole of it, in milliseconds. */
    Jitter HALF_TO_FULL = new HalfToFull();

    /** A wait within ±{@code fraction} of the wait, in milliseconds, and at least 1 ms. */
    static Jitter spread(double fraction) {
      return new Spread(fraction);
    }

    /** {@code wait} spread with {@code random}. */
    Duration apply(Duration wait, RandomGenerator random);

    /** The wait as it is. */
    record None() implements Jitter {
      @Override
      public Duration apply(Duration wait, RandomGenerator random) {
        return wait;
      }
    }

    /** A wait drawn evenly from half the wait to the whole of it (both included), in ms. */
    record HalfToFull() implements Jitter {
      @Override
      public Duration apply(Duration wait, RandomGenerator random) {
        long millis = wait.toMillis();
        return Duration.ofMillis(random.nextLong(millis / 2, millis + 1));
      }
    }

    /**
     * A wait drawn from {@code wait × (1 − fraction)} (included) to {@code wait × (1 + fraction)},
     * rounded to milliseconds, at least 1 ms.
     *
     * @param fraction how far the wait may move either way: more than 0, less than 1
     */
    record Spread(double fraction) implements Jitter {
      /** Checks the fraction. */
      public Spread {
        if (!(fraction > 0 && fraction < 1)) {
          throw new IllegalArgumentException(
              "a jitter's fraction must be more than 0 and less than 1, was " + fraction);
        }
      }

      @Override
      public Duration apply(Duration wait, RandomGenerator random) {
        return Duration.ofMillis(
            Math.max(
                1, Math.round(wait.toMillis() * random.nextDouble(1 - fraction, 1 + fraction))));
      }
    }
  }
}
