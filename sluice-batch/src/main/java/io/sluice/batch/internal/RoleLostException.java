package io.sluice.batch.internal;

import io.sluice.core.SluiceException;
import io.sluice.jobs.spi.NodeLease;

/**
 * A node's commit as the loader or the output's writer of a shared instance was refused: it no
 * longer has that role (its lease lapsed, and another node took it over: the loading from the
 * stored input position, the writing from the committed bytes). Nothing of the commit was stored;
 * the node stops loading, or cuts its uncommitted bytes off and lets go of the file.
 */
public final class RoleLostException extends SluiceException {

  private static final long serialVersionUID = 1L;

  /** What a node does as the loader. */
  static final String LOADS = "loads batch instance";

  /** What a node does as the output's writer. */
  static final String WRITES = "writes the output of batch instance";

  RoleLostException(long instance, NodeLease node, String role) {
    super(
        "Node "
            + node
            + " no longer "
            + role
            + " "
            + instance
            + ": its lease lapsed (the process was paused, or the database unreachable, for longer"
            + " than the lease) and another node took it over; this commit stored nothing");
  }
}
