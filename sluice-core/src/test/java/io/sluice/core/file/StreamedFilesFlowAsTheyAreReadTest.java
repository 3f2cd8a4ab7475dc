package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.sluice.core.ConfigurationException;
import io.sluice.core.LogCapture;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file source with {@code streaming: true} in a real application, its timer driven by the test:
 * the payload is a stream read from disk as the flow reads it, and what happens to the file while
 * it is read decides what happens to it after.
 */
class StreamedFilesFlowAsTheyAreReadTest {

  private static final int SIZE = 3 * 1024 * 1024 + 17;

  @TempDir Path root;

  private final ManualClock clock = new ManualClock(Instant.now());
  private final ManualTimerService timer = new ManualTimerService(clock);
  private Application app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private Path in() throws IOException {
    return Files.createDirectories(root.resolve("in"));
  }

  private Path out() {
    return root.resolve("out");
  }

  private static byte[] content() {
    byte[] bytes = new byte[SIZE];
    new Random(42).nextBytes(bytes);
    return bytes;
  }

  /** A flow: {@code first} on the streamed payload, then a file sink copying what is left. */
  private void start(Processor first) throws IOException {
    app =
        Application.builder()
            .clock(clock)
            .timer(timer)
            .shutdownTimeout(Duration.ofSeconds(5))
            .flow(
                Flow.builder("stream")
                    .source(new FileSource(FileSourceConfig.builder(in()).streaming(true).build()))
                    .processor(first)
                    .sink(
                        new FileWriteProcessor(
                            out(),
                            Template.parse("fileName", "#[attributes.fileName]"),
                            WriteMode.OVERWRITE))
                    .build())
            .build();
    app.start();
    timer.runDue();
  }

  /** A BLOCKING_IO step that gets the stream and the file's path. */
  private static Processor onStream(StreamStep body) {
    return Processor.of(
        ProcessingType.BLOCKING_IO,
        message -> {
          body.run((InputStream) message.payload(), Path.of((String) message.attribute("path")));
          return message;
        });
  }

  private interface StreamStep {
    void run(InputStream stream, Path file) throws Exception;
  }

  private double failedFiles() {
    return app.meterRegistry().get("sluice.file.failed").counter().count();
  }

  @Test
  void theFlowGetsAStreamAndTheSinkCopiesItWhole() throws Exception {
    byte[] bytes = content();
    Path file = Files.write(in().resolve("big.bin"), bytes);
    AtomicReference<Object> payload = new AtomicReference<>();
    AtomicReference<Object> size = new AtomicReference<>();

    start(
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              payload.set(message.payload());
              size.set(message.attribute("size"));
              return message;
            }));

    await().atMost(Duration.ofSeconds(10)).until(() -> Files.notExists(file));
    assertThat(payload.get()).isInstanceOf(InputStream.class);
    assertThat(size.get()).isEqualTo((long) SIZE);
    assertThat(Files.readAllBytes(out().resolve("big.bin"))).isEqualTo(bytes);
  }

  @Test
  void aFileCutShortWhileItIsReadFailsItsFlowAndStays() throws Exception {
    Path file = Files.write(in().resolve("cut.bin"), content());

    try (LogCapture log = LogCapture.of(FileSource.class)) {
      start(
          onStream(
              (stream, path) -> {
                stream.readNBytes(SIZE / 2);
                try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                  channel.truncate(SIZE / 3);
                }
                stream.transferTo(OutputStreamThatDrops.INSTANCE);
              }));

      await().atMost(Duration.ofSeconds(10)).until(() -> failedFiles() == 1);
      assertThat(log.at(Level.WARN))
          .singleElement()
          .asString()
          .contains("cut.bin")
          .contains("changed while flow 'stream' read it (file source, streaming: true)")
          .contains(SIZE + " bytes when it was opened, " + SIZE / 3 + " now");
    }
    assertThat(file).exists().hasSize(SIZE / 3);
    assertThat(out().resolve("cut.bin")).doesNotExist();
  }

  @Test
  void aFileDeletedWhileItIsReadIsStillReadWhole() throws Exception {
    byte[] bytes = content();
    Files.write(in().resolve("gone.bin"), bytes);

    try (LogCapture log = LogCapture.of(FileSource.class)) {
      start(
          onStream(
              (stream, path) -> {
                Files.delete(path);
                // The open file keeps its data: the sink after this step copies all of it.
              }));

      await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(out().resolve("gone.bin")));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> log.at(Level.WARN).stream().anyMatch(line -> line.contains("gone.bin")));
      assertThat(log.at(Level.WARN))
          .singleElement()
          .asString()
          .contains("someone else deleted or moved it meanwhile; nothing to delete");
    }
    assertThat(Files.readAllBytes(out().resolve("gone.bin"))).isEqualTo(bytes);
    assertThat(failedFiles()).isZero();
  }

  @Test
  void aStreamCannotBeStored() {
    Message streamed = Message.of(InputStream.nullInputStream());

    assertThatThrownBy(() -> StoredMessage.of(streamed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("A stream payload")
        .hasMessageContaining("cannot be stored: read it into bytes or a String first");
  }

  @Test
  void aFlowThatKeepsWhatItAcceptedRefusesAStreamingSourceWhenBuilt() throws IOException {
    FileSource streamed = new FileSource(FileSourceConfig.builder(in()).streaming(true).build());
    ProcessingStrategy persistent =
        new ProcessingStrategy.Staged(
            ThreadingProfile.DEFAULT, ThreadingProfile.DEFAULT, ThreadingProfile.DEFAULT, true);

    assertThatThrownBy(() -> Flow.builder("kept").source(streamed).strategy(persistent).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("strategy")
        .hasMessageContaining("cannot keep the streams its source hands over");
  }

  /** An output stream that keeps nothing, for reading a stream to its end. */
  private static final class OutputStreamThatDrops extends java.io.OutputStream {
    static final OutputStreamThatDrops INSTANCE = new OutputStreamThatDrops();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
