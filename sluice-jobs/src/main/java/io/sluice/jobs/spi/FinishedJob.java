package io.sluice.jobs.spi;

import java.time.Instant;

/**
 * An entry of a {@link JobStore}'s history: a job that ended, as it was when it did. A job has one
 * entry per end: an incident retried and then completed has a {@link State#FAILED} entry and a
 * {@link State#COMPLETED} one.
 *
 * @param id the entry's number: entries are numbered in the order they were written, so a greater
 *     id ended later (up to the commits of concurrent nodes, milliseconds apart)
 * @param jobId the id the job had
 * @param type its type
 * @param state completed, or failed (it became an incident)
 * @param priority its priority
 * @param uniqueKey its unique key, or null
 * @param exclusiveKey its exclusive key, or null
 * @param attempts how many times it was claimed
 * @param error why it failed; for a completed job the error of its last failed run, if one failed;
 *     else null
 * @param node the node that completed it or whose run failed it, or null
 * @param createdAt when it was created
 * @param finishedAt when it completed or failed, on the store's clock
 * @param payloadText its payload as text (a text as it is, bytes read as UTF-8, any other value as
 *     {@link String#valueOf}), cut to {@link #PAYLOAD_TEXT_LENGTH} characters; null when it was
 *     created while the store kept no history
 */
public record FinishedJob(
    long id,
    long jobId,
    String type,
    State state,
    int priority,
    String uniqueKey,
    String exclusiveKey,
    int attempts,
    String error,
    String node,
    Instant createdAt,
    Instant finishedAt,
    String payloadText) {

  /** The most characters of a payload's text the history keeps. */
  public static final int PAYLOAD_TEXT_LENGTH = 4000;

  /** How a job ended. */
  public enum State {
    /** Its handler returned: the job completed. */
    COMPLETED,
    /** It failed with no retry left (or its payload could not be read): it became an incident. */
    FAILED
  }
}
