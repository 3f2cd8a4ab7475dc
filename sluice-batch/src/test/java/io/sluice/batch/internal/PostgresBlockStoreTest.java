package io.sluice.batch.internal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresBlockStoreTest extends BlockStoreContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  Storage newStorage() throws Exception {
    DB.dropTables();
    return reopen();
  }

  @Override
  Storage reopen() {
    return new PostgresStorageFactory()
        .open(DB.config(), VALUES, new SimpleMeterRegistry(), Clock.systemUTC());
  }
}
