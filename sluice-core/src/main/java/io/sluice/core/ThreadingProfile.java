package io.sluice.core;

import java.time.Duration;

/**
 * A fixed pool and its queue, as Mule users know it: at most {@code maxThreadsActive} threads,
 * started on demand and stopped after {@code idleTtl} without work, except the {@code
 * maxThreadsIdle} kept for the next messages; at most {@code maxQueue} messages waiting; and what
 * happens when both are full.
 *
 * @param maxThreadsActive the most threads at once (at least 1)
 * @param maxThreadsIdle the threads kept alive when idle, past {@code idleTtl} (0 to {@code
 *     maxThreadsActive}; Mule's core pool size). They are started on demand like the others: a pool
 *     that never needed a second thread keeps one.
 * @param maxQueue the most messages waiting for a thread (0: hand over directly or not at all)
 * @param exhaustedAction what happens when threads and queue are full
 * @param waitTimeout how long WAIT waits before refusing (positive)
 * @param idleTtl how long an idle thread lives (positive), unless it is one of the {@code
 *     maxThreadsIdle} kept
 */
public record ThreadingProfile(
    int maxThreadsActive,
    int maxThreadsIdle,
    int maxQueue,
    ExhaustedAction exhaustedAction,
    Duration waitTimeout,
    Duration idleTtl) {

  /** The most threads of one profile: ten thousand. */
  public static final int MAX_THREADS = 10_000;

  /** The most messages one profile's queue holds: a million. */
  public static final int MAX_QUEUE = 1_000_000;

  /**
   * The default: 16 threads, none kept when idle, a queue of 1000, WAIT 30 s, idle 60 s. (Mule
   * keeps one idle thread and queues nothing by default.)
   */
  public static final ThreadingProfile DEFAULT = builder().build();

  /** Checks every rule and lists every violation at once. */
  public ThreadingProfile {
    ConfigProblems problems = new ConfigProblems();
    if (problems.check(
        maxThreadsActive >= 1, "maxThreadsActive", maxThreadsActive, "must be at least 1")) {
      problems.atMost("maxThreadsActive", maxThreadsActive, MAX_THREADS);
    }
    if (problems.check(maxThreadsIdle >= 0, "maxThreadsIdle", maxThreadsIdle, "must be 0 or more")
        && problems.atMost("maxThreadsIdle", maxThreadsIdle, MAX_THREADS)) {
      problems.check(
          maxThreadsIdle <= maxThreadsActive,
          "maxThreadsIdle",
          maxThreadsIdle,
          "must be at most maxThreadsActive ("
              + maxThreadsActive
              + "): a pool keeps no more"
              + " threads than it may run");
    }
    if (problems.check(maxQueue >= 0, "maxQueue", maxQueue, "must be 0 or more")) {
      problems.atMost("maxQueue", maxQueue, MAX_QUEUE);
    }
    if (problems.check(exhaustedAction != null, "exhaustedAction", null, "is required")) {
      problems.check(
          exhaustedAction != ExhaustedAction.DISCARD_OLDEST || maxQueue >= 1,
          "exhaustedAction",
          exhaustedAction,
          "needs a queue: with maxQueue 0 no message waits, so there is no oldest to drop; set"
              + " maxQueue to 1 or more, or choose DISCARD");
    }
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

  /** A profile keeping no idle thread, as before {@code maxThreadsIdle} existed. */
  public ThreadingProfile(
      int maxThreadsActive,
      int maxQueue,
      ExhaustedAction exhaustedAction,
      Duration waitTimeout,
      Duration idleTtl) {
    this(maxThreadsActive, 0, maxQueue, exhaustedAction, waitTimeout, idleTtl);
  }

  /** A builder starting from this profile's values. */
  public Builder toBuilder() {
    return builder()
        .maxThreadsActive(maxThreadsActive)
        .maxThreadsIdle(maxThreadsIdle)
        .maxQueue(maxQueue)
        .exhaustedAction(exhaustedAction)
        .waitTimeout(waitTimeout)
        .idleTtl(idleTtl);
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ThreadingProfile}; unset values keep their defaults. */
  public static final class Builder {
    private int maxThreadsActive = 16;
    private int maxThreadsIdle = 0;
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

    /** The threads kept alive when idle (at most maxThreadsActive). */
    public Builder maxThreadsIdle(int value) {
      this.maxThreadsIdle = value;
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
          maxThreadsActive, maxThreadsIdle, maxQueue, exhaustedAction, waitTimeout, idleTtl);
    }
  }
}
