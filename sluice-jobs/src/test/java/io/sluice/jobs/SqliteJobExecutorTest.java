package io.sluice.jobs;

import io.sluice.core.store.JobStore;
import io.sluice.core.store.Storage;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

/** The executor on SQLite: one process, so "another node" shares the store. */
class SqliteJobExecutorTest extends JobExecutorContract {

  @TempDir Path dir;

  @Override
  protected Storage newStorage(Clock clock) {
    return JobTestStorages.sqlite(dir, clock);
  }

  @Override
  protected JobStore otherNode() {
    return store;
  }

  @Override
  protected Connection connect() throws Exception {
    return JobTestStorages.sqliteConnection(dir);
  }

  @Override
  protected AutoCloseable blockWrites() throws Exception {
    Connection connection = connect();
    connection.createStatement().execute("BEGIN IMMEDIATE");
    return () -> {
      connection.createStatement().execute("ROLLBACK");
      connection.close();
    };
  }
}
