package io.sluice.jobs;

import io.sluice.testkit.PostgresTestDatabase;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Unreadable payloads on PostgreSQL. */
class PostgresUnreadablePayloadTest extends UnreadablePayloadContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.postgres(DB);
  }
}
