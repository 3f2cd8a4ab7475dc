package io.sluice.jobs.spi;

import io.sluice.core.store.Require;

/**
 * Which unfinished jobs {@link JobStore#list} returns: those in one state (or any) and of one type
 * (or any) whose id is above {@code afterId}, at most {@code max}, in id order. To page through
 * them all, pass the last id a page returned as the next page's {@code afterId}.
 *
 * @param state the state asked for; null for any
 * @param type the job type asked for; null for any
 * @param afterId only jobs with a greater id (0: from the first)
 * @param max the most jobs returned, at least 1
 */
public record JobQuery(JobQuery.State state, String type, long afterId, int max) {

  /** The states a job is listed by: those of {@link JobState}. */
  public enum State {
    /** {@link JobState.Waiting}: due or not. */
    WAITING,
    /** {@link JobState.Running}. */
    RUNNING,
    /** {@link JobState.Incident}. */
    INCIDENT
  }

  /** Checks every component; the message names the one that is wrong and its value. */
  public JobQuery {
    if (type != null) {
      NewJob.type(type);
    }
    if (afterId < 0) {
      throw new IllegalArgumentException("afterId must not be negative, was " + afterId);
    }
    Require.atLeastOne(max);
  }

  /** The first {@code max} jobs, of any state and type. */
  public static JobQuery first(int max) {
    return new JobQuery(null, null, 0, max);
  }

  /** This query, for jobs in {@code value} (null: any). */
  public JobQuery withState(State value) {
    return new JobQuery(value, type, afterId, max);
  }

  /** This query, for jobs of type {@code value} (null: any). */
  public JobQuery withType(String value) {
    return new JobQuery(state, value, afterId, max);
  }

  /** This query, for jobs whose id is above {@code id}: the page after the one ending there. */
  public JobQuery after(long id) {
    return new JobQuery(state, type, id, max);
  }
}
