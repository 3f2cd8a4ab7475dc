package io.sluice.jobs;

import java.sql.Connection;
import java.time.Instant;

/**
 * A job as its handler sees it: what it was created with, which attempt this is, and a way to
 * complete it inside the handler's own transaction ({@link #completeIn}).
 */
public final class JobContext {

  /** Completes a held job on a caller's connection; false when it is not held any more. */
  @FunctionalInterface
  public interface Completer {
    /** Deletes the job inside the transaction on {@code transaction}; false if not held. */
    boolean complete(Connection transaction);
  }

  private final long id;
  private final String type;
  private final Object payload;
  private final int attempt;
  private final int retriesLeft;
  private final Instant dueAt;
  private final String node;
  private final Completer completer;
  private volatile boolean completedInTransaction;

  /**
   * The job {@code id} of {@code type}, run by {@code node} for the {@code attempt}-th time, with
   * {@code retriesLeft} retries after this one; {@code completer} serves {@link #completeIn}.
   */
  public JobContext(
      long id,
      String type,
      Object payload,
      int attempt,
      int retriesLeft,
      Instant dueAt,
      String node,
      Completer completer) {
    this.id = id;
    this.type = type;
    this.payload = payload;
    this.attempt = attempt;
    this.retriesLeft = retriesLeft;
    this.dueAt = dueAt;
    this.node = node;
    this.completer = completer;
  }

  /** The job's id. */
  public long id() {
    return id;
  }

  /** Its type. */
  public String type() {
    return type;
  }

  /** What it was created with. */
  public Object payload() {
    return payload;
  }

  /** How many times it was claimed, this time included (1 the first time). */
  public int attempt() {
    return attempt;
  }

  /** How many more failures are retried. */
  public int retriesLeft() {
    return retriesLeft;
  }

  /** When it was due. */
  public Instant dueAt() {
    return dueAt;
  }

  /** The node running it. */
  public String node() {
    return node;
  }

  /**
   * Completes this job inside the handler's own transaction on {@code transaction}, a connection to
   * the job store's database that the handler then commits: the job is finished exactly when the
   * handler's work commits, and not run again after a crash in between. When this node no longer
   * holds the job (its lease lapsed and another node may run it), a {@link JobNotHeldException}
   * says so: roll the transaction back.
   */
  public void completeIn(Connection transaction) {
    if (!completer.complete(transaction)) {
      throw new JobNotHeldException(
          "Job "
              + id
              + " of type '"
              + type
              + "' is no longer held by node "
              + node
              + ": its lease lapsed and another node may run the job. Roll back this transaction");
    }
    completedInTransaction = true;
  }

  /** Whether {@link #completeIn} completed the job in the handler's transaction. */
  public boolean completedInTransaction() {
    return completedInTransaction;
  }

  @Override
  public String toString() {
    return "job " + id + " of type '" + type + "' (attempt " + attempt + ", node " + node + ")";
  }
}
