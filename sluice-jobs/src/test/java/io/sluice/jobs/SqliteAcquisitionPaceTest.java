package io.sluice.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The pace of claims on SQLite. */
class SqliteAcquisitionPaceTest extends AcquisitionPaceContract {

  @TempDir Path dir;

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.sqlite(dir);
  }
}
