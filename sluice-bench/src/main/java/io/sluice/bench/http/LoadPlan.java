package io.sluice.bench.http;

import java.util.concurrent.TimeUnit;

/**
 * What the load client does and when, in {@link System#nanoTime()} terms once started: which
 * requests count (those whose intended start falls in the measured window) and when clients stop.
 *
 * @param mode how each client paces its requests
 * @param clients the simulated clients, one connection and at most one request in flight each
 * @param intervalNanos {@link Mode#PACED}: the time between one client's intended starts
 * @param requestsPerClient {@link Mode#BATCH}: the requests each client sends
 * @param warmUpNanos from the start to the measured window (not counted)
 * @param measuredNanos the measured window ({@link Mode#BATCH}: the most the run may take)
 * @param timeoutNanos how long a request may wait for its answer before it counts as timed out
 */
record LoadPlan(
    Mode mode,
    int clients,
    long intervalNanos,
    int requestsPerClient,
    long warmUpNanos,
    long measuredNanos,
    long timeoutNanos) {

  /** How a client paces its requests. */
  enum Mode {
    /** The next request as soon as the previous one is answered, until the window ends. */
    CLOSED,
    /**
     * One request per interval, each due at its intended start; a late answer makes the next ones
     * late and their latency counts from when they were due (no coordinated omission).
     */
    PACED,
    /** A fixed number of requests back to back, all measured; reports the makespan (E2). */
    BATCH
  }

  /** The start of the measured window for a run started at {@code start}. */
  long windowStart(long start) {
    return mode == Mode.BATCH ? start : start + warmUpNanos;
  }

  /** The end of the measured window; in BATCH mode the end of the time allowed. */
  long windowEnd(long start) {
    return start + (mode == Mode.BATCH ? measuredNanos : warmUpNanos + measuredNanos);
  }

  /** After this no request is sent: the window's end plus a timeout for late ones (PACED). */
  long sendDeadline(long start) {
    return windowEnd(start) + (mode == Mode.PACED ? timeoutNanos : 0);
  }

  /** Client {@code index}'s first intended start: PACED clients spread over one interval. */
  long firstIntended(long start, int index) {
    return mode == Mode.PACED ? start + intervalNanos * index / clients : start;
  }

  /** The next intended start after a request intended at {@code intended} ended at {@code now}. */
  long nextIntended(long intended, long now) {
    return mode == Mode.PACED ? intended + intervalNanos : now;
  }

  /** The requests a client would still have sent in the window from {@code intended} on. */
  long unsent(long intended, long start, int sent) {
    if (mode == Mode.BATCH) {
      return requestsPerClient - sent;
    }
    if (mode == Mode.CLOSED) {
      return 0;
    }
    long first = intended;
    long behind = windowStart(start) - intended;
    if (behind > 0) {
      first += (behind + intervalNanos - 1) / intervalNanos * intervalNanos;
    }
    long left = windowEnd(start) - first;
    return left <= 0 ? 0 : (left + intervalNanos - 1) / intervalNanos;
  }

  /** The ideal throughput: one request per interval per client (PACED only), else NaN. */
  double idealPerSecond() {
    return mode == Mode.PACED
        ? clients * (double) TimeUnit.SECONDS.toNanos(1) / intervalNanos
        : Double.NaN;
  }
}
