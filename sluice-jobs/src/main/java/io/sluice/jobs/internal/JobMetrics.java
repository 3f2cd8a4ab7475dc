package io.sluice.jobs.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The meters of one executor node, tagged with its id. */
final class JobMetrics {

  final Counter attempts;
  final Counter acquired;
  final Counter lockFailures;
  final Counter fenced;
  final Counter rejected;
  final Counter executed;
  final Counter failed;
  final Counter incidents;
  final Counter unreadable;
  final Counter dropped;
  final Timer startLatency;
  final DistributionSummary completedTogether;

  private final MeterRegistry registry;
  private final String node;
  private final Map<String, AtomicLong> waiting = new ConcurrentHashMap<>();
  private final Map<String, Timer> typeTimers = new ConcurrentHashMap<>();

  JobMetrics(MeterRegistry registry, String node) {
    this.registry = registry;
    this.node = node;
    attempts = counter("sluice.jobs.acquisition.attempts", "Claims this node tried");
    acquired = counter("sluice.jobs.acquired", "Jobs this node claimed");
    lockFailures =
        counter(
            "sluice.jobs.lock.failures",
            "Claim candidates another node took first (optimistic acquisition; 0 with skip-locked)");
    fenced =
        counter(
            "sluice.jobs.fenced",
            "Completions, failures or releases refused because the node's lease had lapsed");
    rejected = counter("sluice.jobs.rejected", "Claimed jobs the execution pool refused (stays 0)");
    executed = counter("sluice.jobs.executed", "Jobs whose handler returned");
    failed = counter("sluice.jobs.failed", "Job runs whose handler threw");
    incidents = counter("sluice.jobs.incidents", "Jobs that became incidents");
    unreadable =
        counter("sluice.jobs.unreadable", "Jobs whose payload could not be read (incidents)");
    dropped =
        counter(
            "sluice.jobs.dropped",
            "Claimed jobs not started because the node lost the lease they were claimed under");
    startLatency =
        Timer.builder("sluice.jobs.start.latency")
            .description("From a job's due time to its start")
            .tag("node", node)
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(10))
            .register(registry);
    completedTogether =
        DistributionSummary.builder("sluice.jobs.completed.together")
            .description("Jobs completed by one bulk write")
            .tag("node", node)
            .register(registry);
  }

  /** A job of {@code type} started {@code late} after its due time (never negative). */
  void waited(String type, Duration late) {
    typeTimer("sluice.jobs.wait", type, null, "From a job's due time to its start, per type")
        .record(late);
  }

  /**
   * A job of {@code type} ran {@code nanos}, its handler returning or, not {@code completed},
   * throwing.
   */
  void ran(String type, boolean completed, long nanos) {
    typeTimer(
            "sluice.jobs.run",
            type,
            completed ? "completed" : "failed",
            "How long a job's handler ran, per type and outcome")
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer typeTimer(String name, String type, String outcome, String description) {
    return typeTimers.computeIfAbsent(
        name + ' ' + type + ' ' + outcome,
        key -> {
          Timer.Builder timer =
              Timer.builder(name)
                  .description(description)
                  .tag("node", node)
                  .tag("type", type)
                  .publishPercentileHistogram()
                  .minimumExpectedValue(Duration.ofNanos(100_000))
                  .maximumExpectedValue(Duration.ofHours(1));
          return (outcome == null ? timer : timer.tag("outcome", outcome)).register(registry);
        });
  }

  /** Registers the gauge of the jobs this node holds, read from {@code held}. */
  void held(AtomicInteger held) {
    Gauge.builder("sluice.jobs.held", held, AtomicInteger::get)
        .description("Jobs this node claimed and has not finished, dropped or handed back")
        .tag("node", node)
        .register(registry);
  }

  private Counter counter(String name, String description) {
    return Counter.builder(name).description(description).tag("node", node).register(registry);
  }

  /** Sets the waiting-jobs gauge of each type; types no longer listed read 0. */
  void waiting(Map<String, Long> counts) {
    counts.forEach(
        (type, count) ->
            waiting
                .computeIfAbsent(
                    type,
                    t -> {
                      AtomicLong value = new AtomicLong();
                      Gauge.builder("sluice.jobs.waiting", value, AtomicLong::get)
                          .description("Jobs waiting (due or not) in the database, per type")
                          .tag("node", node)
                          .tag("type", t)
                          .register(registry);
                      return value;
                    })
                .set(count));
    waiting.forEach(
        (type, value) -> {
          if (!counts.containsKey(type)) {
            value.set(0);
          }
        });
  }
}
