package io.sluice.jdbc;

import io.sluice.core.testing.ManualClock;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDurableQueueRulesTest extends DurableQueueRulesTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JdbcStorage newStorage(ManualClock clock) throws Exception {
    DB.dropTables();
    return TestStorages.postgres(DB, clock);
  }

  @Override
  protected JdbcStorage reopen(ManualClock clock) {
    return TestStorages.postgres(DB, clock);
  }
}
