package io.sluice.jobs;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Unreadable payloads on SQLite. */
class SqliteUnreadablePayloadTest extends UnreadablePayloadContract {

  @TempDir Path dir;

  @Override
  protected JobTestDatabase database() {
    return JobTestDatabase.sqlite(dir);
  }
}
