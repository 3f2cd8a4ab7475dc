package io.sluice.jobs;

import io.sluice.core.store.Storage;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;

/**
 * The database under an executor test ({@link JobExecutorFixture}): an SQLite file in a directory,
 * or a PostgreSQL test schema.
 */
interface JobTestDatabase {

  /** A new, empty storage on {@code clock}. */
  Storage open(Clock clock) throws Exception;

  /**
   * Another node's storage on the same database (its own connections and listener), or null where
   * one process owns the database (SQLite): another node then shares the first one's store.
   */
  Storage another(Clock clock);

  /** A connection to the database behind the storage's back. */
  Connection connect() throws Exception;

  /**
   * Makes the job tables unwritable until the result is closed: another connection holds SQLite's
   * write lock, or locks PostgreSQL's job tables; the node's writes wait and then fail or resume.
   */
  AutoCloseable blockWrites() throws Exception;

  /** An SQLite file in {@code dir}. */
  static JobTestDatabase sqlite(Path dir) {
    return new JobTestDatabase() {
      @Override
      public Storage open(Clock clock) {
        return JobTestStorages.sqlite(dir, clock);
      }

      @Override
      public Storage another(Clock clock) {
        return null;
      }

      @Override
      public Connection connect() throws Exception {
        return JobTestStorages.sqliteConnection(dir);
      }

      @Override
      public AutoCloseable blockWrites() throws Exception {
        Connection connection = connect();
        connection.createStatement().execute("BEGIN IMMEDIATE");
        return () -> {
          connection.createStatement().execute("ROLLBACK");
          connection.close();
        };
      }
    };
  }

  /** The test schema of {@code db}, emptied when a storage is opened. */
  static JobTestDatabase postgres(PostgresTestDatabase db) {
    return new JobTestDatabase() {
      @Override
      public Storage open(Clock clock) throws Exception {
        db.dropTables();
        return JobTestStorages.postgres(db, clock);
      }

      @Override
      public Storage another(Clock clock) {
        return JobTestStorages.postgres(db, clock);
      }

      @Override
      public Connection connect() throws Exception {
        return db.connect();
      }

      @Override
      public AutoCloseable blockWrites() throws Exception {
        Connection connection = connect();
        connection.setAutoCommit(false);
        connection
            .createStatement()
            .execute("LOCK TABLE sluice_job_node, sluice_job IN ACCESS EXCLUSIVE MODE");
        return () -> {
          connection.rollback();
          connection.close();
        };
      }
    };
  }
}
