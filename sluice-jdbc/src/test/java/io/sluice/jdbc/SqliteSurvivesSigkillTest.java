package io.sluice.jdbc;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded SQLite store keeps what it acknowledged through 20 SIGKILLs ({@link CrashRuns}). */
@Tag("crash")
class SqliteSurvivesSigkillTest {

  @TempDir Path dir;

  @Test
  void acceptedMessagesAreAllDeliveredAfterTwentyKills() throws Exception {
    String data = dir.resolve("data").toString();
    CrashRuns.killRepeatedly("queue", data, dir, 101);
    CrashRuns.verifyQueue(data, dir, "sqlite");
  }

  @Test
  void acknowledgedPutsAreAllThereAfterTwentyKills() throws Exception {
    String data = dir.resolve("data").toString();
    CrashRuns.killRepeatedly("store", data, dir, 202);
    CrashRuns.verifyStore(data, dir);
  }
}
