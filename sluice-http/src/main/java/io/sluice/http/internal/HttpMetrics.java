package io.sluice.http.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The meters of one HTTP server, tagged with its address. */
final class HttpMetrics {

  /** Why a request or a connection was answered by the server instead of a flow. */
  enum Refusal {
    /** maxConnections reached: 503 and closed. */
    CONNECTIONS,
    /** The flow was full: 503 with Retry-After. */
    BUSY,
    /** A malformed request line, header or target (a bad percent-escape): 400. */
    MALFORMED,
    /** A version other than HTTP/1.x: 505. */
    VERSION_NOT_SUPPORTED,
    /** A request line over maxInitialLineLength: 414. */
    LINE_TOO_LONG,
    /** Headers over maxHeaderSize: 431. */
    HEADERS_TOO_LARGE,
    /** A body over maxBodySize: 413. */
    BODY_TOO_LARGE,
    /** A request that was still arriving at its requestTimeout: 408 (slow-loris). */
    SLOW_CLIENT,
    /** A flow still working at the requestTimeout: 504. */
    TIMEOUT,
    /** The client went away before its response was written. */
    CLIENT_GONE,
    /** No route for the path (404) or the method (405). */
    NO_ROUTE,
    /** A TLS handshake that failed: an old protocol, no trusted client certificate, not TLS. */
    TLS_HANDSHAKE;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  private final MeterRegistry registry;
  private final Tags tags;
  // Looked up once per status and reason: building and registering a meter on every response cost
  // several percent of the event loop's time under load.
  private final Map<Integer, Counter> responses = new ConcurrentHashMap<>();
  private final Map<Refusal, Counter> refusals = new ConcurrentHashMap<>();
  private final Map<String, Timer> served = new ConcurrentHashMap<>();

  HttpMetrics(MeterRegistry registry, String server, AtomicInteger connections) {
    this.registry = registry;
    this.tags = Tags.of("server", server);
    Gauge.builder("sluice.http.connections", connections, AtomicInteger::get)
        .tags(tags)
        .description("Open connections")
        .register(registry);
  }

  void response(int status) {
    responses
        .computeIfAbsent(
            status,
            s ->
                Counter.builder("sluice.http.responses")
                    .tags(tags)
                    .tag("status", Integer.toString(s))
                    .description("Responses written, by status")
                    .register(registry))
        .increment();
  }

  private static final java.util.Set<String> STANDARD_METHODS =
      java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE");

  /**
   * A request a route took was answered with {@code status} after {@code nanos} (from the end of
   * its head to its response), timed per route, method and status class ({@code 2xx}...).
   */
  void served(String route, String requested, int status, long nanos) {
    String statusClass = ClientMetrics.statusClass(status);
    // A route open to every method takes any token a client sends: one meter each would let a
    // client grow the registry without end.
    String method = STANDARD_METHODS.contains(requested) ? requested : "OTHER";
    served
        .computeIfAbsent(
            route + ' ' + method + ' ' + statusClass,
            key ->
                Timer.builder("sluice.http.server.requests")
                    .tags(tags)
                    .tag("route", route)
                    .tag("method", method)
                    .tag("status", statusClass)
                    .description("Requests a listener's route answered, from head to response")
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(50_000))
                    .maximumExpectedValue(Duration.ofMinutes(5))
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** A listener looked at its changed TLS files: {@code reloaded} or {@code failed}. */
  void tlsReload(String result) {
    Counter.builder("sluice.http.tls.reloads")
        .tags(tags)
        .tag("result", result)
        .description("Changed TLS files loaded for new connections, or that failed to load")
        .register(registry)
        .increment();
  }

  void refused(Refusal reason) {
    refusals
        .computeIfAbsent(
            reason,
            r ->
                Counter.builder("sluice.http.refused")
                    .tags(tags)
                    .tag("reason", r.tag())
                    .description(
                        "Requests and connections the server answered or closed itself, by reason")
                    .register(registry))
        .increment();
  }
}
