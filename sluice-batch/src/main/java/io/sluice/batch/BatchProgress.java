package io.sluice.batch;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a running instance is, for a progress display: counts so far (this instance's, across its
 * runs) and this run's elapsed time.
 *
 * @param loaded records read from the input
 * @param processed records through every step
 * @param failed records failed
 * @param expected how many records the input holds, when it knows (a generator); else empty
 * @param elapsed since this run began
 * @param processedThisRun records through every step in this run, for its rate
 */
public record BatchProgress(
    long loaded,
    long processed,
    long failed,
    OptionalLong expected,
    Duration elapsed,
    long processedThisRun,
    List<BatchNodeWork> nodes) {

  /** Checks the nodes. */
  public BatchProgress {
    nodes = List.copyOf(nodes);
  }

  /** Where a run of one process is: no per-node breakdown. */
  public BatchProgress(
      long loaded,
      long processed,
      long failed,
      OptionalLong expected,
      Duration elapsed,
      long processedThisRun) {
    this(loaded, processed, failed, expected, elapsed, processedThisRun, List.of());
  }

  /** Records through every step per second in this run. */
  public double rate() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : processedThisRun / seconds;
  }

  /** The time left at this run's rate, when the input's size is known and records flow. */
  public Optional<Duration> eta() {
    double rate = rate();
    if (expected.isEmpty() || rate <= 0) {
      return Optional.empty();
    }
    long left = Math.max(0, expected.getAsLong() - processed);
    return Optional.of(Duration.ofMillis(Math.round(left / rate * 1000)));
  }
}
