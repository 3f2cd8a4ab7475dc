package io.sluice.http.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The timer of an {@code http-request}'s calls, {@code sluice.http.client.requests}, by host (and
 * port), method and outcome: the status class ({@code 2xx}...) of an answer, or {@code timeout} or
 * {@code error} without one. A URL made from message data could name a new host at each message:
 * after {@link #MAX_HOSTS} hosts, the others count as {@code other}, so a flow cannot grow the
 * registry without end.
 */
public final class ClientMetrics {

  /** Hosts timed apart; more are counted together as {@code other}. */
  static final int MAX_HOSTS = 100;

  private final MeterRegistry registry;
  private final String flow;
  private final String method;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();

  /** The timers of the calls a flow's requester makes with {@code method}. */
  public ClientMetrics(MeterRegistry registry, String flow, String method) {
    this.registry = registry;
    this.flow = flow;
    this.method = method;
  }

  /** A call to {@code host:port} ended with {@code outcome} after {@code nanos}. */
  public void called(String host, int port, String outcome, long nanos) {
    String where = host + ":" + port;
    // A host already timed keeps its own timers, a new outcome of it too; a new host beyond the
    // bound does not.
    if (!hosts.contains(where)) {
      if (hosts.size() >= MAX_HOSTS) {
        where = "other";
      } else {
        hosts.add(where);
      }
    }
    String target = where;
    timers
        .computeIfAbsent(
            target + ' ' + outcome,
            key ->
                Timer.builder("sluice.http.client.requests")
                    .tag("flow", flow)
                    .tag("host", target)
                    .tag("method", method)
                    .tag("outcome", outcome)
                    .description("Calls an http-request made, from its send to its answer")
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofMinutes(5))
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The outcome of an answer with {@code status}: its class. */
  public static String statusClass(int status) {
    return (status / 100) + "xx";
  }
}
