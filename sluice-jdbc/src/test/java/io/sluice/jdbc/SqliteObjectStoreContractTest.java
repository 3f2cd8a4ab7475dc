package io.sluice.jdbc;

import io.sluice.core.store.Storage;
import io.sluice.testkit.ObjectStoreContractTest;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

/** The object store contract, run against SQLite: a new file per test. */
class SqliteObjectStoreContractTest extends ObjectStoreContractTest {

  @TempDir Path dir;

  @Override
  protected Storage newStorage(Clock clock) {
    return TestStorages.sqlite(dir, clock);
  }

  @Override
  protected Storage reopen(Clock clock) {
    return TestStorages.sqlite(dir, clock);
  }
}
