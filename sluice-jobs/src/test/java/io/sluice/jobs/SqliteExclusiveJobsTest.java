package io.sluice.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Exclusive keys on SQLite. */
class SqliteExclusiveJobsTest extends ExclusiveJobsContract {

  @TempDir Path dir;

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.sqlite(dir);
  }
}
