package io.sluice.core;

import java.time.Duration;

/**
 * A fixed pool and its queue, as Mule users know it: at most {@code maxThreadsActive} threads,
 * started on demand and stopped after {@code idleTtl} without work; at most {@code maxQueue}
 * messages waiting; and what happens when both are full.
 *
 * @param maxThreadsActive the most threads at once (at least 1)
 * @param maxQueue the most messages waiting for a thread (0: hand over directly or not at all)
 * @param exhaustedAction what happens when threads and queue are full
 * @param waitTimeout how long WAIT waits before refusing (positive)
 * @param idleTtl how long an idle thread lives (positive)
 */
public record ThreadingProfile(
    int maxThreadsActive,
    int maxQueue,
    ExhaustedAction exhaustedAction,
    Duration waitTimeout,
    Duration idleTtl) {

  /** The most threads of one profile: ten thousand. */
  public static final int MAX_THREADS = 10_000;

  /** The most messages one profile's queue holds: a million. */
  public static final int MAX_QUEUE = 1_000_000;

  /** Mule's default: 16 threads, a queue of 1000, WAIT 30 s, idle 60 s. */
  public static final ThreadingProfile DEFAULT = builder().build();

  /** Checks every rule and lists every violation at once. */
  public ThreadingProfile {
    ConfigProblems problems = new ConfigProblems();
    if (problems.check(
        maxThreadsActive >= 1, "maxThreadsActive", maxThreadsActive, "must be at least 1")) {
      problems.atMost("maxThreadsActive", maxThreadsActive, MAX_THREADS);
    }
    if (problems.check(maxQueue >= 0, "maxQueue", maxQueue, "must be 0 or more")) {
      problems.atMost("maxQueue", maxQueue, MAX_QUEUE);
    }
    problems.check(exhaustedAction != null, "exhaustedAction", null, "is required");
    problems.check(
        waitTimeout != null && waitTimeout.isPositive(),
        "waitTimeout",
        waitTimeout,
        "must be a positive duration");
    problems.atMost("waitTimeout", waitTimeout, ConfigProblems.MAX_DURATION);
    problems.check(
        idleTtl != null && idleTtl.isPositive(), "idleTtl", idleTtl, "must be a positive duration");
    problems.atMost("idleTtl", idleTtl, ConfigProblems.MAX_DURATION);
    problems.throwIfAny();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ThreadingProfile}; unset values keep their defaults. */
  public static final class Builder {
    private int maxThreadsActive = 16;
    private int maxQueue = 1000;
    private ExhaustedAction exhaustedAction = ExhaustedAction.WAIT;
    private Duration waitTimeout = Duration.ofSeconds(30);
    private Duration idleTtl = Duration.ofSeconds(60);

    private Builder() {}

    /** The most threads at once. */
    public Builder maxThreadsActive(int value) {
      this.maxThreadsActive = value;
      return this;
    }

    /** The most messages waiting. */
    public Builder maxQueue(int value) {
      this.maxQueue = value;
      return this;
    }

    /** What happens when threads and queue are full. */
    public Builder exhaustedAction(ExhaustedAction value) {
      this.exhaustedAction = value;
      return this;
    }

    /** How long WAIT waits. */
    public Builder waitTimeout(Duration value) {
      this.waitTimeout = value;
      return this;
    }

    /** How long an idle thread lives. */
    public Builder idleTtl(Duration value) {
      this.idleTtl = value;
      return this;
    }

    /** The profile; fails listing every broken rule. */
    public ThreadingProfile build() {
      return new ThreadingProfile(
          maxThreadsActive, maxQueue, exhaustedAction, waitTimeout, idleTtl);
    }
  }
}
