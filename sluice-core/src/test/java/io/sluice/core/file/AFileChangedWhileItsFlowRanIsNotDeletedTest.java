package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.sluice.core.LogCapture;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written to or replaced while its flow had it is not deleted when the flow ends: its new
 * content would be lost unread. It stays and is read again at the next poll.
 */
class AFileChangedWhileItsFlowRanIsNotDeletedTest {

  @TempDir Path root;

  private final ManualClock clock = new ManualClock(Instant.now());
  private final ManualTimerService timer = new ManualTimerService(clock);
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private Application app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  /** Reads whole files; the first time a file is seen, {@code meddle} runs on its path. */
  private void start(Path in, Meddling meddle) {
    app =
        Application.builder()
            .clock(clock)
            .timer(timer)
            .shutdownTimeout(Duration.ofSeconds(5))
            .flow(
                Flow.builder("changing")
                    .source(new FileSource(FileSourceConfig.builder(in).build()))
                    .processor(
                        Processor.of(
                            ProcessingType.BLOCKING_IO,
                            message -> {
                              seen.add(new String((byte[]) message.payload()));
                              if (seen.size() == 1) {
                                meddle.run(Path.of((String) message.attribute("path")));
                              }
                              return message;
                            }))
                    .build())
            .build();
    app.start();
    timer.runDue();
  }

  private interface Meddling {
    void run(Path file) throws IOException;
  }

  @Test
  void aFileAppendedToWhileItsFlowRanStaysAndIsReadAgain() throws Exception {
    Path in = Files.createDirectories(root.resolve("in"));
    Path file = Files.writeString(in.resolve("log.txt"), "first line\n");

    try (LogCapture log = LogCapture.of(FileSource.class)) {
      start(in, path -> Files.writeString(path, "second line\n", StandardOpenOption.APPEND));
      await().atMost(Duration.ofSeconds(10)).until(() -> !log.at(Level.WARN).isEmpty());
      assertThat(log.at(Level.WARN))
          .singleElement()
          .asString()
          .contains("log.txt")
          .contains("changed size (11 bytes when listed, 23 now)")
          .contains("it stays and is read again");
    }
    assertThat(file).hasContent("first line\nsecond line\n");

    clock.advance(Duration.ofSeconds(1));
    timer.runDue();
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.notExists(file));
    assertThat(seen).containsExactly("first line\n", "first line\nsecond line\n");
  }

  @Test
  void aFileReplacedWhileItsFlowRanStaysAndIsReadAgain() throws Exception {
    Path in = Files.createDirectories(root.resolve("in"));
    Path file = Files.writeString(in.resolve("order.csv"), "old order");

    start(
        in,
        path -> {
          Path fresh = Files.writeString(root.resolve("order.csv.new"), "new order");
          Files.move(fresh, path, StandardCopyOption.REPLACE_EXISTING);
        });
    await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
    assertThat(file).hasContent("new order");

    clock.advance(Duration.ofSeconds(1));
    timer.runDue();
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.notExists(file));
    assertThat(seen).containsExactly("old order", "new order");
  }
}
