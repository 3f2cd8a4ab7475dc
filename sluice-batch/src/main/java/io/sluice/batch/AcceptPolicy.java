package io.sluice.batch;

/** Which records a step takes, by whether an earlier step (or the input) failed them. */
public enum AcceptPolicy {
  /** Only records no earlier step failed (the default). */
  NO_FAILURES,
  /** Only records an earlier step failed: to report or repair them. */
  ONLY_FAILURES,
  /** Every record. */
  ALL;

  /** Whether a step with this policy takes {@code record}. */
  public boolean accepts(BatchRecord record) {
    return switch (this) {
      case NO_FAILURES -> !record.failed();
      case ONLY_FAILURES -> record.failed();
      case ALL -> true;
    };
  }
}
