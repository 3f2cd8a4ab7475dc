package io.sluice.batch;

import java.io.Serializable;

/**
 * One record of a batch job as it goes through the steps: where it came from in the input, its
 * payload as the last step that took it left it, and, once a step failed it, which step and why.
 * Immutable.
 *
 * @param position its place in the input, from 1 (a CSV file's line number, a generator's index)
 * @param payload its payload
 * @param failedAt the step that failed it ({@code input} when it could not be read), or null
 * @param error why it failed, or null
 */
public record BatchRecord(long position, Object payload, String failedAt, String error)
    implements Serializable {

  /** The step name of a record that failed while the input was read. */
  public static final String INPUT = "input";

  /**
   * The step name of a record the job's output could not write (its payload cannot be made a line);
   * no step of a job with an output may have it.
   */
  public static final String OUTPUT = "output";

  /** A record read at {@code position}, not failed. */
  public static BatchRecord of(long position, Object payload) {
    return new BatchRecord(position, payload, null, null);
  }

  /** Whether a step (or the input) failed it. */
  public boolean failed() {
    return failedAt != null;
  }

  /** This record with {@code value} as its payload, its failure (if any) kept. */
  public BatchRecord withPayload(Object value) {
    return new BatchRecord(position, value, failedAt, error);
  }

  /** This record, failed at {@code step} because of {@code why}. */
  public BatchRecord failedAt(String step, String why) {
    return new BatchRecord(position, payload, step, why);
  }
}
