package io.sluice.jobs;

import io.sluice.core.store.Storage;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobStoreContractTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/** The job store contract, run against SQLite: a new file per test. */
class SqliteJobStoreContractTest extends JobStoreContractTest {

  @TempDir Path dir;

  @Override
  protected Storage newStorage(Clock clock) {
    return JobTestStorages.sqlite(dir, clock);
  }

  @Override
  protected Storage reopen(Clock clock) {
    return JobTestStorages.sqlite(dir, clock);
  }

  @Override
  protected JobStore newJobStore(Storage storage) {
    return JobTestStorages.jobs(storage);
  }

  @Override
  protected JobStore newJobStore(Storage storage, Duration history) {
    return JobTestStorages.jobs(storage, history);
  }

  @Override
  protected Connection connect() throws Exception {
    return JobTestStorages.sqliteConnection(dir);
  }

  @Override
  protected void refuseJobsOfType(String type) throws Exception {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TRIGGER refuse_jobs BEFORE INSERT ON sluice_job WHEN NEW.type = '"
              + type
              + "' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    }
  }
}
