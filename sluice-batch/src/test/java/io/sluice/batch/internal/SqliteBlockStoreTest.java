package io.sluice.batch.internal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

class SqliteBlockStoreTest extends BlockStoreContract {

  @TempDir Path dir;

  @Override
  Storage newStorage() {
    return reopen();
  }

  @Override
  Storage reopen() {
    return new SqliteStorageFactory()
        .open(
            StorageConfig.builder().dataDir(dir).build(),
            VALUES,
            new SimpleMeterRegistry(),
            Clock.systemUTC());
  }
}
