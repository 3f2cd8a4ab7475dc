package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch process killed with SIGKILL ten times at random points of one 200,000-record job, each
 * time started again on the same embedded store: the last run ends with exactly the counts of an
 * uninterrupted run, so no record was lost and no step committed twice for a record; and the
 * instance keeps exactly one row per failed record up to its bound, none twice.
 */
@Tag("crash")
class BatchSurvivesSigkillTest {

  private static final int KILLS = 10;
  private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(120);

  @TempDir Path dir;

  /** Records through every step so far, read behind the child's back (0 before it began). */
  private long processed() {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
        ResultSet rs =
            c.createStatement().executeQuery("SELECT SUM(processed) FROM sluice_batch_instance")) {
      return rs.next() ? rs.getLong(1) : 0;
    } catch (SQLException e) {
      return 0; // not created yet
    }
  }

  private Process start(int run) throws Exception {
    return new ProcessBuilder(ChildJvm.command(BatchCrashChild.class, dir.toString()))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("child-" + run + ".out").toFile())
        .start();
  }

  private String output(int run) throws Exception {
    return Files.readString(dir.resolve("child-" + run + ".out"), StandardCharsets.UTF_8);
  }

  @Test
  void tenKillsLeaveTheCountsOfAnUninterruptedRun() throws Exception {
    Random random = new Random(20261124L);
    for (int run = 0; run < KILLS; run++) {
      long before = processed();
      // Each run gets somewhere (up to a tenth of what is left) before it dies.
      long target = before + 1 + random.nextInt((int) ((BatchCrashChild.RECORDS - before) / 10));
      Process child = start(run);
      try {
        await()
            .atMost(CHILD_TIMEOUT)
            .pollInterval(Duration.ofMillis(2))
            .until(() -> !child.isAlive() || processed() >= target);
        assertThat(child.isAlive())
            .as("run %d ended by itself before its kill; its output:%n%s", run, output(run))
            .isTrue();
      } finally {
        child.destroyForcibly(); // SIGKILL on Linux
        child.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    }
    assertThat(processed()).as("the kills came mid-job").isLessThan(BatchCrashChild.RECORDS);

    Process last = start(KILLS);
    assertThat(last.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    String out = output(KILLS);

    // 200,000 numbers; a tenth end in 7 and fail "double"; "report" takes those; "evens" takes
    // the doubled even numbers of the rest (n even: 100,000 of them).
    assertThat(out)
        .as("the last run's output")
        .contains(
            "RESULT COMPLETED 200000 200000 180000 20000"
                + " double=200000/20000/0 report=20000/0/180000 evens=100000/0/100000");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT COUNT(*), COUNT(DISTINCT position), SUM(step = 'double'),"
                        + " SUM(payload LIKE '%7'), (SELECT failures_kept FROM"
                        + " sluice_batch_instance) FROM sluice_batch_failure")) {
      rs.next();
      assertThat(rs.getLong(1)).as("rows").isEqualTo(BatchCrashChild.KEPT);
      assertThat(rs.getLong(2)).as("distinct positions").isEqualTo(BatchCrashChild.KEPT);
      assertThat(rs.getLong(3)).as("failed at double").isEqualTo(BatchCrashChild.KEPT);
      assertThat(rs.getLong(4)).as("payloads ending in 7").isEqualTo(BatchCrashChild.KEPT);
      assertThat(rs.getLong(5)).as("failures_kept").isEqualTo(BatchCrashChild.KEPT);
    }
  }
}
