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
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch process writing a CSV output, killed with SIGKILL eight times at random points of one
 * 200,000-line job and started again on the same embedded store each time: the last run leaves the
 * output holding each expected line once, in input order, none lost and none twice.
 */
@Tag("crash")
class ACsvOutputSurvivesSigkillTest {

  private static final int LINES = 200_000;
  private static final int KILLS = 8;
  private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(120);

  @TempDir Path dir;

  /** Records through every step so far, read behind the child's back (0 before it began). */
  private long processed() {
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("store/sluice.db"));
        ResultSet rs =
            c.createStatement().executeQuery("SELECT SUM(processed) FROM sluice_batch_instance")) {
      return rs.next() ? rs.getLong(1) : 0;
    } catch (SQLException e) {
      return 0; // not created yet
    }
  }

  private Process start(int run) throws Exception {
    return new ProcessBuilder(
            ChildJvm.command(
                CsvOutputCrashChild.class,
                dir.resolve("store").toString(),
                dir.resolve("orders.csv").toString(),
                dir.resolve("orders-out.csv").toString()))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("child-" + run + ".out").toFile())
        .start();
  }

  private String output(int run) throws Exception {
    return Files.readString(dir.resolve("child-" + run + ".out"), StandardCharsets.UTF_8);
  }

  @Test
  void eightKillsLeaveEachLineOnceInInputOrder() throws Exception {
    OrdersCsv.write(dir.resolve("orders.csv"), LINES);
    Random random = new Random(20261127L);
    for (int run = 0; run < KILLS; run++) {
      long before = processed();
      long target = before + 1 + random.nextInt((int) ((LINES - before) / 8));
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
    assertThat(processed()).as("the kills came mid-job").isLessThan(LINES);

    Process last = start(KILLS);
    assertThat(last.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();

    List<String> expected = OrdersCsv.expected(LINES);
    assertThat(output(KILLS))
        .contains("RESULT COMPLETED " + LINES + " " + (LINES - OrdersCsv.failures(LINES)));
    List<String> lines = Files.readAllLines(dir.resolve("orders-out.csv"), StandardCharsets.UTF_8);
    assertThat(lines).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      if (!lines.get(i).equals(expected.get(i))) {
        assertThat(lines.get(i)).as("output line %d", i + 1).isEqualTo(expected.get(i));
      }
    }
  }
}
