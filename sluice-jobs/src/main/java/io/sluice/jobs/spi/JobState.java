package io.sluice.jobs.spi;

import java.time.Instant;

/**
 * Where a job in a {@link JobStore} stands. A finished job is deleted: it has no state, only an
 * entry in the store's {@link JobStore#history} ({@link FinishedJob}).
 */
public sealed interface JobState {

  /**
   * Waiting to be claimed: due at {@code dueAt} (it may be due already, or be a retry after a
   * backoff).
   *
   * @param dueAt when it may be claimed
   */
  record Waiting(Instant dueAt) implements JobState {}

  /**
   * Claimed by a node, running or about to.
   *
   * @param owner the node and epoch that hold it
   */
  record Running(NodeLease owner) implements JobState {}

  /**
   * Failed with no retries left: it waits for someone to look at it and retry it.
   *
   * @param error what the last run failed with
   */
  record Incident(String error) implements JobState {}
}
