package io.sluice.batch.internal;

import io.sluice.core.SluiceException;
import io.sluice.jobs.spi.NodeLease;

/**
 * A node's commit of loaded blocks was refused: it no longer loads the instance (its lease lapsed
 * and another node took the loading over from the stored input position). Nothing of the commit was
 * stored; the node stops loading.
 */
public final class LoadingLostException extends SluiceException {

  private static final long serialVersionUID = 1L;

  LoadingLostException(long instance, NodeLease loader) {
    super(
        "Node "
            + loader
            + " no longer loads batch instance "
            + instance
            + ": its lease lapsed (the process was paused, or the database unreachable, for longer"
            + " than the lease) and another node took the loading over; this commit stored"
            + " nothing");
  }
}
