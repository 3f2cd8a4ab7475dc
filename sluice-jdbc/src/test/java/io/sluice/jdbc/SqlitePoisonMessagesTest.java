package io.sluice.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

/** Poison messages on SQLite: a new file per test. */
class SqlitePoisonMessagesTest extends PoisonMessagesContract {

  @TempDir Path dir;

  @Override
  protected JdbcStorage open(StoredValues values, MeterRegistry registry) {
    return (JdbcStorage)
        new SqliteStorageFactory()
            .open(TestStorages.sqliteConfig(dir), values, registry, Clock.systemUTC());
  }
}
