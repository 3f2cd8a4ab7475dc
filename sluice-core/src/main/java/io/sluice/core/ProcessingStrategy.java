package io.sluice.core;

import java.time.Duration;

/**
 * How a flow spreads its work over threads: {@link Synchronous}, {@link Staged} or {@link Auto}
 * (the default).
 */
public sealed interface ProcessingStrategy
    permits ProcessingStrategy.Synchronous, ProcessingStrategy.Staged, ProcessingStrategy.Auto {

  /** The strategy's name as written in configuration. */
  String name();

  /** The default strategy: {@code auto} with its defaults. */
  static ProcessingStrategy defaultStrategy() {
    return Auto.DEFAULT;
  }

  /**
   * Thread per message: a receiver thread from the profile's pool carries each message through the
   * whole flow, blocking calls included.
   *
   * @param receiver the receiver pool
   * @param async the pool of the flow's {@code async} scopes (null: the built-in defaults)
   */
  record Synchronous(ThreadingProfile receiver, ThreadingProfile async)
      implements ProcessingStrategy {
    /** Requires a profile. */
    public Synchronous {
      if (receiver == null) {
        throw new ConfigurationException(ConfigProblem.of("receiver", null, "is required"));
      }
      async = async == null ? ThreadingProfile.DEFAULT : async;
    }

    /** A receiver pool, the async scopes' pool with the built-in defaults. */
    public Synchronous(ThreadingProfile receiver) {
      this(receiver, null);
    }

    @Override
    public String name() {
      return "synchronous";
    }
  }

  /**
   * SEDA: three stages, each with its own bounded queue and pool. The receiver stage accepts
   * messages from the source, the flow stage runs the processors, the dispatcher stage runs the
   * sinks.
   *
   * <p>A persistent staged flow keeps what its source hands it in the application's storage (the
   * durable queue {@code flow/<name>}) before the receiver stage takes it: a message accepted
   * before a crash is processed after the restart (at least once).
   *
   * @param receiver the receiver stage
   * @param flow the flow stage
   * @param dispatcher the dispatcher stage
   * @param persistent whether accepted messages are kept in the storage until the flow ends them
   * @param serializer the named serializer (with its codec) a persistent flow writes its messages
   *     with, or null for the application's default; readers go by each record's header
   * @param async the pool of the flow's {@code async} scopes (null: the built-in defaults)
   */
  record Staged(
      ThreadingProfile receiver,
      ThreadingProfile flow,
      ThreadingProfile dispatcher,
      boolean persistent,
      String serializer,
      ThreadingProfile async)
      implements ProcessingStrategy {
    /** Requires all three profiles; a serializer only when persistent. */
    public Staged {
      ConfigProblems problems = new ConfigProblems();
      problems.check(receiver != null, "receiver", null, "is required");
      problems.check(flow != null, "flow", null, "is required");
      problems.check(dispatcher != null, "dispatcher", null, "is required");
      problems.check(
          serializer == null || persistent,
          "serializer",
          serializer,
          "applies only to a persistent staged flow (persistent: true); an in-memory one stores"
              + " nothing");
      problems.throwIfAny();
      async = async == null ? ThreadingProfile.DEFAULT : async;
    }

    /** Three stages, the async scopes' pool with the built-in defaults. */
    public Staged(
        ThreadingProfile receiver,
        ThreadingProfile flow,
        ThreadingProfile dispatcher,
        boolean persistent,
        String serializer) {
      this(receiver, flow, dispatcher, persistent, serializer, null);
    }

    /** Three stages, persistent or not, written with the application's default serializer. */
    public Staged(
        ThreadingProfile receiver,
        ThreadingProfile flow,
        ThreadingProfile dispatcher,
        boolean persistent) {
      this(receiver, flow, dispatcher, persistent, null);
    }

    /** Three stages, in memory only. */
    public Staged(ThreadingProfile receiver, ThreadingProfile flow, ThreadingProfile dispatcher) {
      this(receiver, flow, dispatcher, false);
    }

    /** The durable queue a persistent staged flow keeps its accepted messages in. */
    public static String durableName(String flowName) {
      return "flow/" + flowName;
    }

    @Override
    public String name() {
      return "staged";
    }
  }

  /**
   * No pool to size: CPU_LITE work runs on the thread that holds the message, CPU_INTENSIVE on one
   * shared pool sized to the cores, BLOCKING_IO on virtual threads under an adaptive limit.
   *
   * @param maxInFlight the most messages the flow holds at once; past it the source waits, is
   *     refused or sheds, as {@code backpressure} says
   * @param backpressure what the source meets when the flow is full
   * @param waitTimeout how long WAIT waits before refusing
   * @param initialLimit the adaptive limit's starting value for BLOCKING_IO work
   * @param maxLimit the most concurrent BLOCKING_IO calls the adaptive limit may allow
   */
  record Auto(
      int maxInFlight,
      ExhaustedAction backpressure,
      Duration waitTimeout,
      int initialLimit,
      int maxLimit)
      implements ProcessingStrategy {

    /** The most messages a flow holds at once: a million. */
    public static final int MAX_IN_FLIGHT = 1_000_000;

    /** The highest adaptive limit: a hundred thousand concurrent calls. */
    public static final int MAX_LIMIT = 100_000;

    /** The defaults: 10,000 in flight, WAIT 30 s, limit from 64 up to 10,000. */
    public static final Auto DEFAULT =
        new Auto(10_000, ExhaustedAction.WAIT, Duration.ofSeconds(30), 64, 10_000);

    /** Checks every rule and lists every violation at once. */
    public Auto {
      ConfigProblems problems = new ConfigProblems();
      if (problems.check(maxInFlight >= 1, "maxInFlight", maxInFlight, "must be at least 1")) {
        problems.atMost("maxInFlight", maxInFlight, MAX_IN_FLIGHT);
      }
      // No CALLER_RUNS (the source's thread is already the caller) and no DISCARD_OLDEST: the
      // messages held are running, none waits in a queue to be dropped.
      problems.check(
          backpressure == ExhaustedAction.WAIT
              || backpressure == ExhaustedAction.REJECT
              || backpressure == ExhaustedAction.DISCARD,
          "backpressure",
          backpressure,
          "must be one of WAIT, REJECT, DISCARD");
      problems.check(
          waitTimeout != null && waitTimeout.isPositive(),
          "waitTimeout",
          waitTimeout,
          "must be a positive duration");
      problems.atMost("waitTimeout", waitTimeout, ConfigProblems.MAX_DURATION);
      if (problems.check(initialLimit >= 1, "initialLimit", initialLimit, "must be at least 1")) {
        problems.atMost("initialLimit", initialLimit, MAX_LIMIT);
      }
      if (problems.check(
          maxLimit >= initialLimit,
          "maxLimit",
          maxLimit,
          "must be at least initialLimit (" + initialLimit + ")")) {
        problems.atMost("maxLimit", maxLimit, MAX_LIMIT);
      }
      problems.throwIfAny();
    }

    @Override
    public String name() {
      return "auto";
    }
  }
}
