package io.sluice.bench.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The downstream service of benchmark E1, served by {@link BareNettyTarget} beside the {@link
 * BenchEndpoint}s (no token: it stands for an external API a batch job calls). {@code GET /latency}
 * answers after a fixed delay; {@code GET /capped} answers after the same delay but serves at most
 * {@code cap} calls at once and answers 429 at once above that, as a rate-limited API does; {@code
 * GET /counts} tells the calls each got and the 429s sent since the start, so a driver reads their
 * differences over a run, and the {@code /latency} calls in flight: now, and the most at once since
 * the last {@code /counts} (so a driver reading it every so often sees each interval's peak). The
 * delays are timers on the event loop: no thread waits.
 */
final class ServiceEndpoints {

  /** Writes an answer on the connection the call came in on. */
  interface Reply {
    void send(HttpResponseStatus status, byte[] body);
  }

  private static final byte[] OK = "ok\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] BUSY = "busy\n".getBytes(StandardCharsets.UTF_8);

  private final long latencyNanos;
  private final int cap;
  private final AtomicInteger cappedInFlight = new AtomicInteger();
  private final AtomicInteger latencyInFlight = new AtomicInteger();
  private final AtomicInteger latencyPeak = new AtomicInteger();
  private final LongAdder latencyCalls = new LongAdder();
  private final LongAdder cappedCalls = new LongAdder();
  private final LongAdder throttled = new LongAdder();

  /** Endpoints answering after {@code latency}; {@code /capped} serves {@code cap} at once. */
  ServiceEndpoints(Duration latency, int cap) {
    if (latency.isNegative() || cap < 1) {
      throw new IllegalArgumentException(
          "latency must be 0 or more and cap at least 1; got " + latency + " and " + cap);
    }
    this.latencyNanos = latency.toNanos();
    this.cap = cap;
  }

  /**
   * Answers {@code path} when it is one of these endpoints, its delay a timer on {@code timer};
   * false when it is not.
   */
  boolean answer(String path, ScheduledExecutorService timer, Reply reply) {
    switch (path) {
      case "/latency" -> {
        latencyCalls.increment();
        latencyPeak.accumulateAndGet(latencyInFlight.incrementAndGet(), Math::max);
        timer.schedule(
            () -> {
              latencyInFlight.decrementAndGet();
              reply.send(HttpResponseStatus.OK, OK);
            },
            latencyNanos,
            TimeUnit.NANOSECONDS);
      }
      case "/capped" -> {
        cappedCalls.increment();
        int now = cappedInFlight.incrementAndGet();
        if (now > cap) {
          cappedInFlight.decrementAndGet();
          throttled.increment();
          reply.send(HttpResponseStatus.TOO_MANY_REQUESTS, BUSY);
        } else {
          timer.schedule(
              () -> {
                // Out of the cap before the answer leaves: the caller may call again at once.
                cappedInFlight.decrementAndGet();
                reply.send(HttpResponseStatus.OK, OK);
              },
              latencyNanos,
              TimeUnit.NANOSECONDS);
        }
      }
      case "/counts" -> reply.send(HttpResponseStatus.OK, counts());
      default -> {
        return false;
      }
    }
    return true;
  }

  /** One {@code name value} line per count, for {@code /counts}. */
  private byte[] counts() {
    String text =
        "latency_calls "
            + latencyCalls.sum()
            + "\ncapped_calls "
            + cappedCalls.sum()
            + "\ncapped_429 "
            + throttled.sum()
            + "\ncap "
            + cap
            + "\nlatency_ms "
            + latencyNanos / 1e6
            + "\nlatency_in_flight "
            + latencyInFlight.get()
            + "\nlatency_in_flight_peak "
            + latencyPeak.getAndSet(latencyInFlight.get())
            + "\n";
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
