package io.sluice.jdbc;

import io.sluice.core.store.Storage;
import io.sluice.testkit.DurableQueueContractTest;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

/** The durable queue contract, run against SQLite: a new file per test. */
class SqliteDurableQueueContractTest extends DurableQueueContractTest {

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
