package io.sluice.jobs;

import io.sluice.core.store.Storage;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobStoreContractTest;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The job store contract, run against PostgreSQL: the class's schema emptied before each test. */
class PostgresJobStoreContractTest extends JobStoreContractTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected Storage newStorage(Clock clock) throws Exception {
    DB.dropTables();
    return JobTestStorages.postgres(DB, clock);
  }

  @Override
  protected Storage reopen(Clock clock) {
    return JobTestStorages.postgres(DB, clock);
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
    return DB.connect();
  }

  @Override
  protected void refuseJobsOfType(String type) throws Exception {
    DB.execute(
        "CREATE OR REPLACE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF"
            + " NEW.type = '"
            + type
            + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
    DB.execute(
        "CREATE TRIGGER refuse_jobs BEFORE INSERT ON sluice_job FOR EACH ROW EXECUTE FUNCTION"
            + " refuse_jobs()");
  }
}
