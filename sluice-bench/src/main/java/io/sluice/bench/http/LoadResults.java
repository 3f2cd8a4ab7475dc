package io.sluice.bench.http;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the clients saw of the requests intended in the measured window: the latency of each
 * answered 2xx from its intended start (microseconds, HdrHistogram), and every other outcome
 * counted by kind ({@code status_503}, {@code timeout}, {@code closed}, {@code connect}, {@code
 * unsent}; {@code connect_setup} for connections that failed before the run). Thread-safe: the
 * clients' event loops record into it.
 */
final class LoadResults {

  private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

  private volatile long windowStart;
  private volatile long windowEnd;
  private final Recorder latencies = new Recorder(MAX_MICROS, 3);
  private final LongAdder ok = new LongAdder();
  private final LongAdder answeredInWindow = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final AtomicLong lastAnswerSinceStart = new AtomicLong();

  /** Counts only what falls in the window that {@code begin} sets. */
  void begin(long windowStart, long windowEnd) {
    this.windowStart = windowStart;
    this.windowEnd = windowEnd;
  }

  private boolean inWindow(long time) {
    return time - windowStart >= 0 && time - windowEnd < 0;
  }

  /** A request intended at {@code intended} was answered {@code status} at {@code now}. */
  void answered(int status, long intended, long now) {
    boolean success = status >= 200 && status < 300;
    if (success && inWindow(now)) {
      answeredInWindow.increment();
    }
    lastAnswerSinceStart.accumulateAndGet(now - windowStart, Math::max);
    if (!inWindow(intended)) {
      return;
    }
    if (success) {
      ok.increment();
      latencies.recordValue(Math.min(MAX_MICROS, TimeUnit.NANOSECONDS.toMicros(now - intended)));
    } else {
      failed("status_" + status, intended, 1);
    }
  }

  /** {@code count} requests intended from {@code intended} on ended in {@code kind}. */
  void failed(String kind, long intended, long count) {
    if (count > 0 && inWindow(intended)) {
      errors.computeIfAbsent(kind, k -> new LongAdder()).add(count);
    }
  }

  /** A connection opened before the run could not be made: counted whatever the window. */
  void setupFailed() {
    errors.computeIfAbsent("connect_setup", k -> new LongAdder()).increment();
  }

  long ok() {
    return ok.sum();
  }

  /** 2xx answers that arrived within the measured window. */
  long answeredInWindow() {
    return answeredInWindow.sum();
  }

  /** From the start of the window to the last answer (BATCH: the makespan), in nanoseconds. */
  long lastAnswerSinceStart() {
    return lastAnswerSinceStart.get();
  }

  /** The errors by kind, sorted by name. */
  Map<String, Long> errors() {
    Map<String, Long> sorted = new TreeMap<>();
    errors.forEach((kind, count) -> sorted.put(kind, count.sum()));
    return sorted;
  }

  /** The latencies of the 2xx answers, microseconds from each request's intended start. */
  Histogram latencies() {
    return latencies.getIntervalHistogram();
  }
}
