package io.sluice.batch;

/**
 * What one step did to records, or what a job did in total.
 *
 * @param processed records the step took (its accept policy and expression let them in)
 * @param failed records it failed
 * @param skipped records it let pass by, not taken
 */
public record StepCounts(long processed, long failed, long skipped) {

  /** Nothing yet. */
  public static final StepCounts NONE = new StepCounts(0, 0, 0);

  /** Records the step took and did not fail. */
  public long successful() {
    return processed - failed;
  }

  /** These counts and {@code other}'s added. */
  public StepCounts plus(StepCounts other) {
    return new StepCounts(
        processed + other.processed, failed + other.failed, skipped + other.skipped);
  }
}
