package io.sluice.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.SluiceException;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The way in for Sluice modules that keep tables of their own in a JDBC storage (the job store):
 * they write through the storage's group-commit writer, read on its read connections, use its
 * dialect's SQL fragments and wake waiters through its signals ({@code LISTEN/NOTIFY} on
 * PostgreSQL). Not for applications: the tables and their rules belong to the module.
 */
public final class JdbcAccess {

  /** The writer's transaction, as write work sees it. */
  public interface Transaction {
    /** The writer's connection, inside its transaction: never commit or close it. */
    Connection connection();

    /** A statement for {@code sql}, prepared once per connection: never close it. */
    PreparedStatement prepare(String sql) throws SQLException;

    /**
     * Wakes, once this transaction committed, the waiters of {@code signal} on every node (on
     * PostgreSQL through a notification sent with the commit).
     */
    void signal(String signal);
  }

  /** Write work: runs in the writer's transaction; may be run again after a rollback. */
  @FunctionalInterface
  public interface Write<T> {
    /** Does the work. */
    T run(Transaction tx) throws SQLException;
  }

  /** Read work on a read connection (auto-commit). */
  @FunctionalInterface
  public interface Read<T> {
    /** Reads. */
    T run(Connection connection) throws SQLException;
  }

  private final JdbcStorage storage;

  private JdbcAccess(JdbcStorage storage) {
    this.storage = storage;
  }

  /** The access to {@code storage}; a SluiceException when it is not a JDBC storage. */
  public static JdbcAccess of(Storage storage) {
    if (storage instanceof JdbcStorage jdbc) {
      return new JdbcAccess(jdbc);
    }
    throw new SluiceException(
        "The storage "
            + (storage == null ? "null" : storage.describe())
            + " is not a SQLite or PostgreSQL storage; jobs need one (sluice.store)");
  }

  /** {@code sqlite} or {@code postgresql}. */
  public String type() {
    return storage.dialect().type();
  }

  /** The storage's description, password masked, for messages. */
  public String describe() {
    return storage.describe();
  }

  /** The application's clock the storage measures times on. */
  public Clock clock() {
    return storage.clock();
  }

  /** Where the storage's meters go: a module's meters about its tables go there too. */
  public MeterRegistry meterRegistry() {
    return storage.registry();
  }

  /** {@code " FOR UPDATE SKIP LOCKED"} on PostgreSQL, empty on SQLite (one writer). */
  public String skipLocked() {
    return storage.dialect().skipLocked();
  }

  /** The condition that an id column is in the list {@link #ids} makes (one parameter). */
  public String inIds() {
    return storage.dialect().inIds();
  }

  /** The one parameter for {@link #inIds()}. */
  public String ids(Collection<Long> ids) {
    return storage.dialect().ids(ids);
  }

  /** Runs {@code work} in the writer's next commit; a StoreException naming {@code what}. */
  public <T> T write(String what, Write<T> work) {
    return storage.write(what, tx -> work.run(new WriterTransaction(tx)));
  }

  /** Maps one result row. */
  @FunctionalInterface
  public interface Row<T> {
    /** The value of the row {@code rs} is on. */
    T map(ResultSet rs) throws SQLException;
  }

  /** The rows {@code sql} selects with {@code parameters}, on a read connection. */
  public <T> List<T> query(String what, String sql, Row<T> row, Object... parameters) {
    return storage.query(what, sql, row::map, parameters);
  }

  /** Sets {@code parameters} (String, Long, Integer, byte[] or null) from the first on. */
  public static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
    JdbcStorage.bind(statement, parameters);
  }

  /** Runs {@code read} on a read connection; a StoreException naming {@code what}. */
  public <T> T read(String what, Read<T> read) {
    return storage.read(what, read::run);
  }

  /** The generation of {@code signal}, to pass to {@link #await} after looking. */
  public long generation(String signal) {
    return storage.signals().generation(signal);
  }

  /** Waits until {@code signal} is woken after {@code seen}, at most {@code timeout}. */
  public boolean await(String signal, long seen, Duration timeout) throws InterruptedException {
    return storage.signals().await(signal, seen, timeout);
  }

  /**
   * Wakes the waiters of {@code signal} on every node when the caller's transaction on {@code
   * transaction} commits: a notification on PostgreSQL; nothing on SQLite, whose one process finds
   * the change when it next looks.
   */
  public void signal(Connection transaction, String signal) throws SQLException {
    WriteContext context = new WriteContext(transaction);
    try {
      storage.dialect().notifyQueues(context, Set.of(signal));
    } finally {
      context.closeStatements();
    }
  }

  /** Wakes this process's waiters of {@code signal} now. */
  public void wake(String signal) {
    storage.signals().wake(signal);
  }

  /** Whether {@code e} says the database could not be reached, rather than refusing the work. */
  public static boolean isConnectionFailure(Throwable e) {
    return JdbcFailures.isConnectionFailure(e);
  }

  /** The error for {@code what} failing with {@code cause}, naming this storage. */
  public StoreException failure(String what, Throwable cause) {
    return new StoreException(
        "Could not " + what + " in " + describe() + ": " + JdbcFailures.rootMessage(cause), cause);
  }

  private record WriterTransaction(WriteContext tx) implements Transaction {
    @Override
    public Connection connection() {
      return tx.connection();
    }

    @Override
    public PreparedStatement prepare(String sql) throws SQLException {
      return tx.prepare(sql);
    }

    @Override
    public void signal(String signal) {
      tx.enqueued(signal);
    }
  }
}
