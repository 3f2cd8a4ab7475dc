package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
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

    try (SluiceProcess sluice =
        SluiceProcess.start(work, "run", "file-copy.yaml", "--management-port", "0")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> count(work.resolve("done")) == 20 || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      String metrics = scrape(sluice);
      assertThat(metrics)
          .contains("sluice_flow_messages_total{flow=\"file-copy\",outcome=\"completed\"} 20.0")
          .contains("sluice_stage_limit{flow=\"file-copy\",stage=\"dispatcher\"} 4.0")
          .contains("sluice_stage_queued{flow=\"file-copy\",stage=\"flow\"}");
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

  /**
   * Scrapes the metrics of {@code sluice} at the address it logs once it runs: the flows may have
   * done their work before that line (the run's last) is written, so this waits for it.
   */
  static String scrape(SluiceProcess sluice) throws Exception {
    Pattern address = Pattern.compile("Metrics at (http://[^ ]+/metrics)");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> !sluice.isAlive() || address.matcher(sluice.log()).find());
    String log = sluice.log();
    Matcher port = address.matcher(log);
    assertThat(port.find()).as("metrics address in the log:%n%s", log).isTrue();
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(port.group(1))).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  static long count(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(directory)) {
      // A hidden file is not an output: file-write's temporary file, left by a kill mid-write.
      return files
          .filter(Files::isRegularFile)
          .filter(path -> !path.getFileName().toString().startsWith("."))
          .count();
    }
  }
}
