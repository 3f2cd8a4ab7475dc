package io.sluice.batch;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What an instance of a batch job did, when it ended (or so far, when it stopped).
 *
 * @param instance the instance's id
 * @param job the job's name
 * @param state how it ended: {@link BatchState#COMPLETED}, {@link BatchState#FAILED} or {@link
 *     BatchState#STOPPED}
 * @param loaded records read from the input
 * @param processed records through every step
 * @param successful of those, records no step (nor the input) failed
 * @param failed records failed, at any step or in the input
 * @param steps what each step did, by step name, in step order
 * @param failures a sample of failed records (at most {@link #SAMPLES}) with their errors, seen by
 *     this run of the instance
 * @param elapsed from this run's start to its end
 * @param failedBeyondLimit by how many records the failures exceeded {@code maxFailedRecords} when
 *     it was passed (the blocks in flight then finished their step): {@code failed −
 *     maxFailedRecords}, or 0 when it was not passed
 * @param message why it failed or stopped, or null when it completed
 * @param processedThisRun records through every step in this run (less than {@code processed} after
 *     a resume)
 */
public record BatchResult(
    long instance,
    String job,
    BatchState state,
    long loaded,
    long processed,
    long successful,
    long failed,
    Map<String, StepCounts> steps,
    List<BatchRecord> failures,
    Duration elapsed,
    long failedBeyondLimit,
    String message,
    long processedThisRun) {

  /** How many failed records a result keeps as samples. */
  public static final int SAMPLES = 10;

  /** Whether the instance completed: every record went through every step. */
  public boolean completed() {
    return state == BatchState.COMPLETED;
  }

  /** Records through every step per second in this run (its records over its elapsed time). */
  public double recordsPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : processedThisRun / seconds;
  }
}
