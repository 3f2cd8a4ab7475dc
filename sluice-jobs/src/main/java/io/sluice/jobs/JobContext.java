package io.sluice.jobs;

import java.time.Instant;

/**
 * A job as its handler sees it.
 *
 * @param id the job's id
 * @param type its type
 * @param payload what it was created with
 * @param attempt how many times it was claimed, this time included (1 the first time)
 * @param retriesLeft how many more failures are retried
 * @param dueAt when it was due
 * @param node the node running it
 */
public record JobContext(
    long id,
    String type,
    Object payload,
    int attempt,
    int retriesLeft,
    Instant dueAt,
    String node) {}
