package io.sluice.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The executor on SQLite: one process, so "another node" shares the store. */
class SqliteJobExecutorTest extends JobExecutorContract {

  @TempDir Path dir;

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.sqlite(dir);
  }
}
