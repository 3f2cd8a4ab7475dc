package io.sluice.jobs.spi;

import java.time.Instant;

/**
 * A job as its {@link JobStore} keeps it, without its payload.
 *
 * @param id the job's id
 * @param type its type
 * @param priority its priority
 * @param state waiting, running or an incident
 * @param retriesLeft how many more failed runs are retried
 * @param attempts how many times it was claimed
 * @param uniqueKey its unique key, or null
 * @param lastError what the last failed run said, or null
 * @param createdAt when it was created
 * @param exclusiveKey its exclusive key, or null
 */
public record JobInfo(
    long id,
    String type,
    int priority,
    JobState state,
    int retriesLeft,
    int attempts,
    String uniqueKey,
    String lastError,
    Instant createdAt,
    String exclusiveKey) {}
