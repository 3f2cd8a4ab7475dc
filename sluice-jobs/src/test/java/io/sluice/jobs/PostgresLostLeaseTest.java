package io.sluice.jobs;

import io.sluice.testkit.PostgresTestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Lost leases on PostgreSQL. */
class PostgresLostLeaseTest extends LostLeaseContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.postgres(DB);
  }
}
