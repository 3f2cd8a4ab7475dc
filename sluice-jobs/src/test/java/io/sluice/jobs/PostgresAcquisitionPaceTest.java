package io.sluice.jobs;

import io.sluice.testkit.PostgresTestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pace of claims on PostgreSQL. */
class PostgresAcquisitionPaceTest extends AcquisitionPaceContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.postgres(DB);
  }
}
