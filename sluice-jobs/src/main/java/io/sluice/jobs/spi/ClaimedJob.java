package io.sluice.jobs.spi;

import java.time.Instant;

/**
 * A job a node claimed from a {@link JobStore}: it holds it under {@link #lease()} until it
 * completes, fails or releases it, or until the lease lapses and another node reclaims it.
 *
 * @param id the job's id
 * @param type its type
 * @param priority its priority
 * @param dueAt when it was due (for the due-to-start latency)
 * @param attempt how many times it was claimed, this time included (1 the first time)
 * @param retriesLeft how many failed runs are still retried
 * @param lease the node and epoch that hold it
 * @param payload its payload, read on demand
 * @param exclusiveKey its exclusive key, or null: the jobs of one key a node claims together it
 *     runs one after another, in due order
 */
public record ClaimedJob(
    long id,
    String type,
    int priority,
    Instant dueAt,
    int attempt,
    int retriesLeft,
    NodeLease lease,
    Payload payload,
    String exclusiveKey) {

  /** A stored payload, deserialized when asked (on the thread that runs the job). */
  @FunctionalInterface
  public interface Payload {
    /**
     * The payload; a {@link io.sluice.core.serialization.spi.SerializationException} when it cannot
     * be read (corrupt, a class not allowed, a serializer not installed).
     */
    Object read();
  }
}
