package io.sluice.formats;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.SetPayloadProcessor;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file source with {@code streaming: true} hands the flow an InputStream on the file; a
 * streaming {@code read}, its format taken from the file's name, iterates the rows while the file
 * is read, and the flow's last step sees how many there were.
 */
class AStreamedFileIsReadRowByRowInAFlowTest {

  private static final int ROWS = 200_000;

  @TempDir Path root;

  private final ManualClock clock = new ManualClock(Instant.now());
  private final ManualTimerService timer = new ManualTimerService(clock);
  private final CompletableFuture<Object> result = new CompletableFuture<>();
  private Application app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private void start(Path in) {
    Processor count =
        Processor.of(
            ProcessingType.BLOCKING_IO,
            message -> {
              long rows = 0;
              long quantity = 0;
              try (StreamedValues values = (StreamedValues) message.payload()) {
                while (values.hasNext()) {
                  Map<?, ?> row = (Map<?, ?>) values.next();
                  quantity += Long.parseLong((String) row.get("quantity"));
                  rows++;
                }
              }
              return message.withPayload(List.of(rows, quantity));
            });
    Processor done =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              result.complete(message.payload());
              return message;
            });
    app =
        Application.builder()
            .clock(clock)
            .timer(timer)
            .shutdownTimeout(Duration.ofSeconds(5))
            .flow(
                Flow.builder("rows")
                    .source(new FileSource(FileSourceConfig.builder(in).streaming(true).build()))
                    .processor(new ReadProcessor(ReadConfig.builder().streaming(true).build()))
                    .processor(count)
                    .processor(done)
                    .onError(
                        new OnError.Continue(
                            List.of("PARSE"),
                            null,
                            List.of(
                                new SetPayloadProcessor(
                                    Template.parse("value", "#[error.cause.line()]")),
                                done)))
                    .build())
            .build();
    app.start();
    timer.runDue();
  }

  private static void writeCsv(Path file, String lastRow) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write("sku,quantity\n".getBytes());
      for (int i = 0; i < ROWS; i++) {
        out.write(("S-" + i + "," + (i % 3) + "\n").getBytes());
      }
      out.write(lastRow.getBytes());
    }
  }

  @Test
  void everyRowOfTheFileIsCounted() throws Exception {
    Path in = Files.createDirectories(root.resolve("in"));
    writeCsv(in.resolve("orders.csv"), "");

    start(in);

    assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(List.of((long) ROWS, (long) ROWS - 1));
  }

  @Test
  void aRowThatDoesNotParseIsTakenByTheParseHandlerWithItsLine() throws Exception {
    Path in = Files.createDirectories(root.resolve("in"));
    writeCsv(in.resolve("orders.csv"), "S-x,\"1\n");

    start(in);

    assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(ROWS + 3L);
  }

  @Test
  void theStreamIsAnInputStreamOnTheFile() throws Exception {
    Path in = Files.createDirectories(root.resolve("in"));
    Files.writeString(in.resolve("one.json"), "[{\"a\": 1}]");
    CompletableFuture<Object> payload = new CompletableFuture<>();
    app =
        Application.builder()
            .clock(clock)
            .timer(timer)
            .flow(
                Flow.builder("types")
                    .source(new FileSource(FileSourceConfig.builder(in).streaming(true).build()))
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              payload.complete(m.payload());
                              return m;
                            }))
                    .processor(new ReadProcessor(ReadConfig.builder().build()))
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              result.complete(m.payload());
                              return m;
                            }))
                    .build())
            .build();
    app.start();
    timer.runDue();

    assertThat(payload.get(30, TimeUnit.SECONDS)).isInstanceOf(InputStream.class);
    assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(List.of(Map.of("a", 1)));
  }
}
