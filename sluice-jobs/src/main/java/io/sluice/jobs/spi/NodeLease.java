package io.sluice.jobs.spi;

import io.sluice.core.store.Require;

/**
 * A node's lease on a {@link JobStore}: its id and the epoch the store gave it when it registered.
 * The epoch is the fencing token: jobs are claimed under it, and finishing a job is accepted only
 * from the node and epoch that hold it. Registering again (after the lease lapsed, or a restart)
 * gives a new epoch, so what the node claimed before can no longer be finished by it.
 *
 * @param node the node's id
 * @param epoch the registration this lease belongs to
 */
public record NodeLease(String node, long epoch) {

  /** Checks the node id. */
  public NodeLease {
    Require.nonBlank(node, "node");
  }

  @Override
  public String toString() {
    return node + "#" + epoch;
  }
}
