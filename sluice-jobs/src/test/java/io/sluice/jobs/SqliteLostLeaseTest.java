package io.sluice.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Lost leases on SQLite. */
class SqliteLostLeaseTest extends LostLeaseContract {

  @TempDir Path dir;

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.sqlite(dir);
  }
}
