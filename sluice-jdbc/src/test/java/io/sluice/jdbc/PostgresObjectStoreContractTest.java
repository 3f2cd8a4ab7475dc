package io.sluice.jdbc;

import io.sluice.core.store.Storage;
import io.sluice.testkit.ObjectStoreContractTest;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The object store contract, run against PostgreSQL: the class's schema emptied before each test.
 */
class PostgresObjectStoreContractTest extends ObjectStoreContractTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected Storage newStorage(Clock clock) throws Exception {
    DB.dropTables();
    return TestStorages.postgres(DB, clock);
  }

  @Override
  protected Storage reopen(Clock clock) {
    return TestStorages.postgres(DB, clock);
  }
}
