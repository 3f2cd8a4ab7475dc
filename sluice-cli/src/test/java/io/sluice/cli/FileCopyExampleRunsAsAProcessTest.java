package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCopyExampleRunsAsAProcessTest {

  @TempDir Path work;

  @Test
  void theExampleCopiesEveryFileAndStopsWithExitZeroOnSigterm() throws Exception {
    Files.copy(Path.of("../examples/file-copy.yaml"), work.resolve("file-copy.yaml"));
    Path in = Files.createDirectories(work.resolve("in"));
    for (int i = 0; i < 20; i++) {
      Files.writeString(in.resolve("note-" + i + ".txt"), "note number " + i + "\n");
    }
    Files.writeString(in.resolve("ignored.csv"), "not matched by *.txt");

    try (SluiceProcess sluice = SluiceProcess.start(work, "run", "file-copy.yaml")) {
      await().atMost(Duration.ofSeconds(60))
          .until(() -> count(work.resolve("done")) == 20 || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
      assertThat(sluice.log()).contains("SIGTERM received").contains("Stopped cleanly");
    }
    for (int i = 0; i < 20; i++) {
      assertThat(work.resolve("out/note-" + i + ".txt")).hasContent("note number " + i);
    }
    assertThat(in.resolve("ignored.csv")).exists();
    assertThat(count(in)).isEqualTo(1);
  }

  static long count(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(Files::isRegularFile).count();
    }
  }
}
