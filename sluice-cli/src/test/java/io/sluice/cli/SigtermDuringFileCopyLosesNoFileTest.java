package io.sluice.cli;

import static io.sluice.cli.FileCopyExampleRunsAsAProcessTest.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class SigtermDuringFileCopyLosesNoFileTest {

  static final int FILES = 2000;

  @TempDir Path work;

  @Test
  void everyFileIsEitherStillInTheInputOrCopiedWhole() throws Exception {
    // 2000 files at 10 ms each, 4 at a time: at least 5 s of work, so SIGTERM lands mid-run.
    Files.writeString(
        work.resolve("copy.yaml"),
        """
        sluice:
          shutdownTimeout: 30s
        flows:
          - name: copy
            strategy:
              staged:
                flow: { maxThreadsActive: 4, maxQueue: 8 }
                dispatcher: { maxThreadsActive: 2, maxQueue: 8 }
            source:
              file: { directory: in, pollingFrequency: 50ms, afterRead: MOVE, moveTo: done, maxConcurrentFiles: 8 }
            processors:
              - component: { class: io.sluice.cli.SlowCopy }
            sinks:
              - file-write: { directory: out }
        """);
    Path in = Files.createDirectories(work.resolve("in"));
    for (int i = 0; i < FILES; i++) {
      Files.writeString(in.resolve(String.format("f-%04d.dat", i)), "content of file " + i);
    }

    try (SluiceProcess sluice = SluiceProcess.start(work, "run", "copy.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> count(work.resolve("done")) >= 50 || !sluice.isAlive());
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
    }

    long remaining = count(in);
    long done = count(work.resolve("done"));
    assertThat(remaining).as("SIGTERM should land mid-run").isPositive();
    assertThat(remaining + done).as("every file is in in/ or done/").isEqualTo(FILES);
    for (int i = 0; i < FILES; i++) {
      String name = String.format("f-%04d.dat", i);
      if (Files.exists(work.resolve("done").resolve(name))) {
        assertThat(work.resolve("out").resolve(name)).hasContent("content of file " + i);
      } else {
        assertThat(in.resolve(name)).hasContent("content of file " + i);
      }
    }
  }
}
