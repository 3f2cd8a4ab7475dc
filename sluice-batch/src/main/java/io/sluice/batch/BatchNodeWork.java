package io.sluice.batch;

import java.time.Instant;

/**
 * What one node did of an instance that several nodes ran on a shared store (PostgreSQL).
 *
 * @param node the node's id ({@code sluice.jobs.nodeId}; host and process id by default)
 * @param processed records the node took through the last step
 * @param failed of those, records failed
 * @param blocks blocks the node took through the last step
 * @param updated when the node last took a block through
 */
public record BatchNodeWork(
    String node, long processed, long failed, long blocks, Instant updated) {}
