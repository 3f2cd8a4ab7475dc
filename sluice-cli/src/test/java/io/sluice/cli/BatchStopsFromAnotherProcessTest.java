package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice batch run in a process of its own, on the embedded store it owns while it runs: stopped by
 * sluice batch stop from this one (through the store), then resumed by a second run and stopped by
 * SIGTERM; both stops are graceful (exit 3) and leave the instance resumable.
 */
@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class BatchStopsFromAnotherProcessTest {

  private static final long RECORDS = 3_000_000;

  @TempDir Path work;

  private String config;

  @BeforeEach
  void writeTheConfiguration() throws Exception {
    Path file = work.resolve("numbers.yaml");
    Files.writeString(
        file,
        """
        batch:
          - name: numbers
            input: { generator: { count: %d } }
            steps:
              - name: double
                processors: [ { expression: { expression: "payload * 2" } } ]
        """
            .formatted(RECORDS));
    config = file.toString();
  }

  /**
   * The row of instance 1 in sluice batch list, split into its cells; empty before there is one.
   */
  private List<String> instance() {
    CliRun list = CliRun.of("batch", "list", config);
    assertThat(list.exitCode()).as(list.err()).isZero();
    return list.out()
        .lines()
        .filter(l -> l.startsWith("1 "))
        .findFirst()
        .map(l -> List.of(l.split(" +")))
        .orElse(List.of());
  }

  private long processed() {
    List<String> row = instance();
    return row.isEmpty() ? 0 : Long.parseLong(row.get(4));
  }

  @Test
  void stopAndSigtermEachStopTheRunGracefullyAndTheInstanceResumes() throws Exception {
    try (SluiceProcess first =
        SluiceProcess.start(work, "batch", "run", "numbers.yaml", "--progress", "lines")) {
      await().atMost(Duration.ofSeconds(60)).until(() -> processed() > 0 || !first.isAlive());
      assertThat(first.isAlive()).as("still running; log:%n%s", first.log()).isTrue();

      CliRun stop = CliRun.of("batch", "stop", config, "1");

      assertThat(stop.exitCode()).as("out: %s; err: %s", stop.out(), stop.err()).isZero();
      assertThat(stop.out())
          .contains("asked instance 1 (numbers) to stop")
          .contains("instance 1 (numbers) is STOPPED");
      assertThat(first.awaitExit(60)).as("exit code; log:%n%s", first.log()).isEqualTo(3);
      assertThat(first.log())
          .contains("stop asked; blocks in flight finish")
          .contains("Batch job numbers, instance 1: STOPPED")
          .contains("stopped; resume it to go on where it stopped");
    }
    long afterStop = processed();
    assertThat(afterStop).isPositive().isLessThan(RECORDS);
    assertThat(instance().get(2)).isEqualTo("STOPPED");

    try (SluiceProcess second =
        SluiceProcess.start(work, "batch", "run", "numbers.yaml", "--progress", "lines")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> second.log().contains("resumes where it stopped") || !second.isAlive());
      assertThat(second.isAlive()).as("still running; log:%n%s", second.log()).isTrue();

      second.terminate();

      assertThat(second.awaitExit(60)).as("exit code; log:%n%s", second.log()).isEqualTo(3);
      assertThat(second.log())
          .contains("Batch job numbers: instance 1 resumes where it stopped")
          .contains("Batch job numbers, instance 1: STOPPED");
    }
    assertThat(instance().get(2)).isEqualTo("STOPPED");
    assertThat(processed()).isGreaterThanOrEqualTo(afterStop).isLessThan(RECORDS);
  }
}
