package io.sluice.jobs;

/**
 * A handler tried to complete its job in its own transaction, but its node no longer holds the job
 * (the lease lapsed and the job was reclaimed): the handler's transaction must roll back, or the
 * job's work would be done twice.
 */
public final class JobNotHeldException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The exception with {@code message}. */
  public JobNotHeldException(String message) {
    super(message);
  }
}
