package io.sluice.bench.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one E5 node counted over its life, read from its meters when it stops and handed to the
 * driver as one line of its standard output ({@link #line()}, read back by {@link #parse}).
 *
 * @param acquired jobs the node claimed
 * @param lockFailures optimistic claim candidates another node took first
 * @param attempts claims the node tried
 * @param statements SQL statements its job store ran (heartbeats and reclaims included)
 * @param executed jobs whose handler returned
 * @param fenced outcomes refused because the node's lease had lapsed
 * @param workMicros how long the jobs' work (their sleeps) really took, in microseconds
 */
record NodeCounters(
    long acquired,
    long lockFailures,
    long attempts,
    long statements,
    long executed,
    long fenced,
    long workMicros) {

  static final NodeCounters NONE = new NodeCounters(0, 0, 0, 0, 0, 0, 0);

  /** The node's timer of its jobs' work. */
  static final String WORK_TIMER = "e5.work";

  private static final String PREFIX = "counters ";

  /** The counters of the one node whose meters are in {@code registry}. */
  static NodeCounters of(MeterRegistry registry) {
    return new NodeCounters(
        count(registry, "sluice.jobs.acquired"),
        count(registry, "sluice.jobs.lock.failures"),
        count(registry, "sluice.jobs.acquisition.attempts"),
        Math.round(registry.get("sluice.jobs.store.statements").functionCounter().count()),
        count(registry, "sluice.jobs.executed"),
        count(registry, "sluice.jobs.fenced"),
        Math.round(registry.timer(WORK_TIMER).totalTime(TimeUnit.MICROSECONDS)));
  }

  private static long count(MeterRegistry registry, String name) {
    return Math.round(registry.get(name).counter().count());
  }

  /** Whether {@code line} is a counters line. */
  static boolean isCounters(String line) {
    return line.startsWith(PREFIX);
  }

  /** {@code counters acquired=… lock_failures=… attempts=… statements=… executed=… fenced=…}. */
  String line() {
    return PREFIX
        + "acquired="
        + acquired
        + " lock_failures="
        + lockFailures
        + " attempts="
        + attempts
        + " statements="
        + statements
        + " executed="
        + executed
        + " fenced="
        + fenced
        + " work_us="
        + workMicros;
  }

  /** Reads a line {@link #line()} wrote. */
  static NodeCounters parse(String line) {
    Map<String, Long> values = new HashMap<>();
    for (String pair : line.substring(PREFIX.length()).trim().split(" ")) {
      int eq = pair.indexOf('=');
      values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
    }
    return new NodeCounters(
        values.get("acquired"),
        values.get("lock_failures"),
        values.get("attempts"),
        values.get("statements"),
        values.get("executed"),
        values.get("fenced"),
        values.get("work_us"));
  }

  /** What was counted since {@code before}, counters of the same nodes read earlier. */
  NodeCounters minus(NodeCounters before) {
    return new NodeCounters(
        acquired - before.acquired,
        lockFailures - before.lockFailures,
        attempts - before.attempts,
        statements - before.statements,
        executed - before.executed,
        fenced - before.fenced,
        workMicros - before.workMicros);
  }

  /** The sum of this node's counters and {@code other}'s. */
  NodeCounters plus(NodeCounters other) {
    return new NodeCounters(
        acquired + other.acquired,
        lockFailures + other.lockFailures,
        attempts + other.attempts,
        statements + other.statements,
        executed + other.executed,
        fenced + other.fenced,
        workMicros + other.workMicros);
  }
}
