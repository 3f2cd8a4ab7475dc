package io.sluice.jobs;

import io.sluice.testkit.PostgresTestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Exclusive keys on PostgreSQL. */
class PostgresExclusiveJobsTest extends ExclusiveJobsContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.postgres(DB);
  }
}
