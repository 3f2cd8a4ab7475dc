package io.sluice.jobs;

import java.sql.Connection;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * A job as its handler sees it: what it was created with, which attempt this is, whether this node
 * still holds it ({@link #holdsJob}), and a way to complete it inside the handler's own transaction
 * ({@link #completeIn}).
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
  private final String exclusiveKey;
  private final String node;
  private final Completer completer;
  private final BooleanSupplier holds;
  private volatile boolean completedInTransaction;
  private volatile boolean lost;

  /**
   * The job {@code id} of {@code type}, run by {@code node} for the {@code attempt}-th time, with
   * {@code retriesLeft} retries after this one, due at {@code dueAt}, with {@code exclusiveKey} (or
   * null); {@code completer} serves {@link #completeIn} and {@code holds} {@link #holdsJob}.
   */
  public JobContext(
      long id,
      String type,
      Object payload,
      int attempt,
      int retriesLeft,
      Instant dueAt,
      String exclusiveKey,
      String node,
      Completer completer,
      BooleanSupplier holds) {
    this.id = id;
    this.type = type;
    this.payload = payload;
    this.attempt = attempt;
    this.retriesLeft = retriesLeft;
    this.dueAt = dueAt;
    this.exclusiveKey = exclusiveKey;
    this.node = node;
    this.completer = completer;
    this.holds = holds;
  }

  /** The job's id. */
  public long id() {
    return id;
  }

  /**
   * Its exclusive key, or null: the jobs of one key never run at the same time anywhere, and run in
   * due order.
   */
  public String exclusiveKey() {
    return exclusiveKey;
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
   * Whether this node still holds the job: true while the lease it was claimed under is valid by
   * the node's own clock (renewed within the lease duration, less a safety margin of a tenth). Once
   * false it stays false: the node was paused or cut off from the database past its lease, or
   * registered again, so another node may run the job, and this run's completion will be refused. A
   * handler with side effects it cannot undo asks before making them, and stops when told false
   * (returning or throwing: the outcome is refused either way). The answer is local and cheap.
   */
  public boolean holdsJob() {
    if (!lost && !holds.getAsBoolean()) {
      lost = true;
    }
    return !lost;
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
