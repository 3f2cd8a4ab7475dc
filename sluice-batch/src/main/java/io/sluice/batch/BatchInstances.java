package io.sluice.batch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.internal.BlockStore;
import io.sluice.batch.internal.FailureTable;
import io.sluice.batch.internal.InstanceTable;
import io.sluice.batch.internal.SqliteGuest;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Require;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.jdbc.JdbcAccess;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The instances of batch jobs in a store, listed and asked to stop from any process, beside the one
 * running them (what {@code sluice batch list} and {@code sluice batch stop} use). A stop request
 * is recorded on the instance; the process running it looks for one every few hundred milliseconds
 * and stops as {@link BatchEngine.Execution#stop()} does.
 *
 * <p>On PostgreSQL this opens the storage, which every node shares. An embedded SQLite store is
 * owned by the one process that opened it ({@code sluice run}, {@code sluice batch run}), so on
 * SQLite this never opens the storage: it reads the instance table through a connection of its own,
 * and a stop request is the one write it makes there. Not thread-safe; close it after use.
 */
public final class BatchInstances implements AutoCloseable {

  private final String where;
  private final InstanceTable table;
  private final FailureTable failures;
  private final Clock clock;
  private final AutoCloseable resource;
  private final boolean shared;

  private BatchInstances(
      String where,
      InstanceTable.Sql sql,
      boolean keepsFailures,
      Clock clock,
      AutoCloseable resource,
      boolean shared) {
    this.shared = shared;
    this.where = where;
    this.table = sql == null ? null : new InstanceTable(sql);
    this.failures = sql == null || !keepsFailures ? null : new FailureTable(sql);
    this.clock = clock;
    this.resource = resource;
  }

  /**
   * The instances in the store {@code config} describes (SQLite or PostgreSQL), its values read
   * with {@code values} and its storage found with {@code loader}; a {@link
   * io.sluice.core.store.StoreException} naming it when it cannot be reached.
   */
  public static BatchInstances open(StorageConfig config, StoredValues values, ClassLoader loader) {
    Require.nonNull(config, "config");
    Clock clock = Clock.systemUTC();
    if (config.type().equals(StorageConfig.SQLITE)) {
      SqliteGuest guest =
          SqliteGuest.open(
              config.sqliteFile().toAbsolutePath().normalize(), config.connectTimeout());
      String where = "sqlite " + config.sqliteFile().toAbsolutePath().normalize();
      return guest == null
          ? new BatchInstances(where, null, false, clock, null, false)
          : new BatchInstances(where, guest, guest.has(FailureTable.TABLE), clock, guest, false);
    }
    Storage storage = Storages.open(config, values, new SimpleMeterRegistry(), clock, loader);
    try {
      InstanceTable.Sql sql = BlockStore.sql(JdbcAccess.of(storage));
      return new BatchInstances(storage.describe(), sql, true, clock, storage, true);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /**
   * The instances in {@code storage}, a SQLite or PostgreSQL storage this process has open (the
   * application's own, in {@code sluice run}): read and asked to stop through it, with no storage
   * or connection of their own, so that a console reading them every second opens nothing. Closing
   * the result leaves {@code storage} open.
   */
  public static BatchInstances of(Storage storage) {
    Require.nonNull(storage, "storage");
    JdbcAccess db = JdbcAccess.of(storage);
    return new BatchInstances(
        storage.describe(),
        BlockStore.sql(db),
        true,
        Clock.systemUTC(),
        null,
        db.type().equals(StorageConfig.POSTGRESQL));
  }

  /** The store, for messages. */
  public String describe() {
    return where;
  }

  /** Up to {@code max} instances, newest first; of {@code job} only unless it is null. */
  public List<BatchInstance> list(String job, int max) {
    return table == null
        ? List.of()
        : table.list(job, max).stream().map(i -> BatchInstances.info(i, false)).toList();
  }

  /** Instance {@code id}, if there is one. */
  public Optional<BatchInstance> find(long id) {
    return table == null ? Optional.empty() : table.find(id).map(i -> info(i, false));
  }

  /**
   * Up to {@code max} of the failed records instance {@code instance} kept (its job's {@code
   * keepFailedRecords}), from input position {@code fromPosition} on (0 for the first page; the
   * position after the last one of a page for the next), in input order; empty when there is no
   * such instance. Rows of one position come in one page, so a page may hold a few more than {@code
   * max} (several rows at 0, each for a stored block that could not be read).
   *
   * @throws IllegalArgumentException when {@code max} is less than 1
   */
  public List<BatchFailure> failures(long instance, long fromPosition, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    return failures == null ? List.of() : failures.from(instance, fromPosition, max);
  }

  /**
   * What each node did of instance {@code id}, by node id, when several nodes ran it on a shared
   * store (PostgreSQL); empty on an embedded store, which one process runs.
   */
  public List<BatchNodeWork> nodes(long id) {
    return shared && table != null ? table.nodes(id) : List.of();
  }

  /**
   * Asks the process running instance {@code id} to stop it; false when the instance is not loading
   * or running (it ended, or stopped already), or there is none. The request stays until a run of
   * the instance ends or begins, so one made while no process runs it (a process killed mid-run
   * leaves its instance running in the store) stops nothing.
   */
  public boolean requestStop(long id) {
    return table != null && table.requestStop(id, clock.millis());
  }

  /** An instance as listed, {@code running} in this process or not. */
  static BatchInstance info(InstanceTable.Instance at, boolean running) {
    return new BatchInstance(
        at.id(),
        at.job(),
        at.state(),
        running,
        at.stopRequested(),
        at.loaded(),
        at.processed(),
        at.successful(),
        at.failed(),
        at.inputDone(),
        Instant.ofEpochMilli(at.createdAt()),
        Instant.ofEpochMilli(at.updatedAt()),
        at.result());
  }

  @Override
  public void close() {
    if (resource != null) {
      try {
        resource.close();
      } catch (Exception e) {
        // read, or one committed update: nothing to lose
      }
    }
  }
}
