package io.sluice.jobs;

import io.sluice.testkit.PostgresTestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The executor on PostgreSQL; another node is another storage with its own listener. */
class PostgresJobExecutorTest extends JobExecutorContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.postgres(DB);
  }
}
