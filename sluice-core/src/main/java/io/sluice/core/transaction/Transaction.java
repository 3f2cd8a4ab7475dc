package io.sluice.core.transaction;

/**
 * One transaction on a {@link TransactionalResource}, begun by a {@code try} scope and carried by
 * its message to the operations inside the scope. It takes no connection until the first operation
 * joins it; it then gives every operation that joins the same connection, one operation at a time
 * (routes running in parallel inside the scope take turns). The scope ends it once: {@link #commit}
 * or {@link #rollback}. An operation that joins it after that fails, saying the transaction ended.
 *
 * <p>Implementations are thread-safe.
 */
public interface Transaction {

  /** The name of the resource (the data source) the transaction runs on. */
  String resourceName();

  /**
   * Where the transaction runs, in the form {@link DatabaseIdentity} gives, so that another party
   * on the same database (the application's own store) can write inside it; null when unknown.
   */
  String database();

  /**
   * Runs {@code work} with the transaction's connection, which must be of {@code connectionType}
   * ({@code java.sql.Connection} for a data source), taking the connection at the first call. The
   * calls are serialized: one runs at a time, the others wait (interruptibly, without pinning a
   * virtual thread). The work must not commit, roll back or close the connection.
   *
   * @throws RuntimeException the resource's typed error (a {@code SluiceException}) when the
   *     transaction has ended
   */
  <C, T> T join(Class<C> connectionType, Work<C, T> work) throws Exception;

  /**
   * Runs {@code callback} once the transaction has committed (never when it rolls back), on the
   * thread that committed it: how a queue written inside it wakes its consumers.
   */
  void afterCommit(Runnable callback);

  /**
   * Commits what the operations did and gives the connection back, then runs the after-commit
   * callbacks; nothing to do when no operation joined. A commit that fails rolls back and throws
   * the resource's typed error. Only the first end counts; ending again does nothing.
   */
  void commit();

  /**
   * Rolls back what the operations did and gives the connection back; waits for an operation still
   * running on it. Only the first end counts; ending again does nothing.
   */
  void rollback();

  /** Whether the transaction has ended (committed or rolled back). */
  boolean ended();

  /** Work done with a transaction's connection. */
  @FunctionalInterface
  interface Work<C, T> {
    /** Does the work on {@code connection}, inside the transaction. */
    T run(C connection) throws Exception;
  }
}
