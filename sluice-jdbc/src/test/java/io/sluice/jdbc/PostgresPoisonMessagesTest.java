package io.sluice.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Poison messages on PostgreSQL: the class's schema emptied before each test. */
class PostgresPoisonMessagesTest extends PoisonMessagesContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  protected JdbcStorage open(StoredValues values, MeterRegistry registry) throws Exception {
    DB.dropTables();
    return (JdbcStorage)
        new PostgresStorageFactory().open(DB.config(), values, registry, Clock.systemUTC());
  }
}
