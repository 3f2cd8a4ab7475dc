package io.sluice.batch;

/** Where an instance of a batch job is. */
public enum BatchState {
  /** Reading its input into blocks (blocks already loaded are processed meanwhile). */
  LOADING,
  /** Its input is loaded; blocks go through the steps. */
  RUNNING,
  /** Stopped by a user or a shutdown; resumable. */
  STOPPED,
  /** Every record went through every step. */
  COMPLETED,
  /** Stopped by {@code maxFailedRecords} or an error of the job itself (not of a record). */
  FAILED;

  /** Whether the instance can be resumed (it did not end). */
  public boolean resumable() {
    return this == LOADING || this == RUNNING || this == STOPPED;
  }
}
