package io.sluice.jobs.spi;

import java.time.Duration;

/**
 * An executor node as the node table of a {@link JobStore} records it, read at one moment.
 *
 * @param node the node's id
 * @param epoch its current registration (the fencing token of what it claims)
 * @param leaseLeft how long its lease has to run on the database's clock; zero or negative when it
 *     lapsed (the node stopped, or froze past its lease)
 */
public record NodeInfo(String node, long epoch, Duration leaseLeft) {

  /** Whether its lease is running: the node counts as alive. */
  public boolean live() {
    return leaseLeft.isPositive();
  }
}
