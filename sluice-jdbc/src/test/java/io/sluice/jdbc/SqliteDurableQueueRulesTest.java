package io.sluice.jdbc;

import io.sluice.core.testing.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteDurableQueueRulesTest extends DurableQueueRulesTest {

  @TempDir Path dir;

  @Override
  protected JdbcStorage newStorage(ManualClock clock) {
    return TestStorages.sqlite(dir, clock);
  }

  @Override
  protected JdbcStorage reopen(ManualClock clock) {
    return TestStorages.sqlite(dir, clock);
  }
}
