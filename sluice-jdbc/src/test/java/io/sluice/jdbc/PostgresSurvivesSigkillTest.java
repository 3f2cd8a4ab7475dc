package io.sluice.jdbc;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The PostgreSQL store keeps what it acknowledged through 20 SIGKILLs ({@link CrashRuns}). */
@Tag("crash")
class PostgresSurvivesSigkillTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path dir;

  @Test
  void acceptedMessagesAreAllDeliveredAfterTwentyKills() throws Exception {
    CrashRuns.killRepeatedly("queue", DB.url(), dir, 303);
    CrashRuns.verifyQueue(DB.url(), dir, "postgresql");
  }

  @Test
  void acknowledgedPutsAreAllThereAfterTwentyKills() throws Exception {
    CrashRuns.killRepeatedly("store", DB.url(), dir, 404);
    CrashRuns.verifyStore(DB.url(), dir);
  }
}
