package io.sluice.core.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.LogCapture;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file source inside a real application, its timer driven by the test. */
class FileSourceInFlowTest {

  private static final Duration POLL = Duration.ofSeconds(1);

  @TempDir Path root;

  private final ManualClock clock = new ManualClock(Instant.now());
  private final ManualTimerService timer = new ManualTimerService(clock);
  private final CountDownLatch release = new CountDownLatch(1);
  private Application app;

  @AfterEach
  void stop() {
    release.countDown();
    if (app != null) {
      app.stop();
    }
  }

  private Path in() throws IOException {
    return Files.createDirectories(root.resolve("in"));
  }

  private void start(Flow.Builder flow, FileSourceConfig config) {
    app =
        Application.builder()
            .clock(clock)
            .timer(timer)
            .shutdownTimeout(Duration.ofSeconds(5))
            .flow(flow.source(new FileSource(config)).build())
            .build();
    app.start();
    timer.runDue();
  }

  /** A processor of this type that runs {@code body} and passes the message on. */
  private static Processor step(ProcessingType type, ThrowingRunnable body) {
    return new Processor() {
      @Override
      public Message process(Message message) throws Exception {
        body.run();
        return message;
      }

      @Override
      public ProcessingType processingType() {
        return type;
      }
    };
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void fileIsCopiedByItsFlowAndMovedOnlyAfterwards() throws IOException {
    Path a = Files.writeString(in().resolve("a.txt"), "through the flow");
    Path done = root.resolve("done");
    Path out = root.resolve("out");

    start(
        Flow.builder("copy")
            .sink(
                new FileWriteProcessor(
                    out,
                    Template.parse("fileName", "#[attributes.fileName]"),
                    WriteMode.OVERWRITE)),
        FileSourceConfig.builder(in())
            .pollingFrequency(POLL)
            .afterRead(AfterRead.MOVE)
            .moveTo(done)
            .build());

    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(done.resolve("a.txt")));
    assertThat(a).doesNotExist();
    assertThat(out.resolve("a.txt")).hasContent("through the flow");
  }

  @Test
  void severalFilesAreInTheirFlowAtOnce() throws Exception {
    for (int i = 0; i < 4; i++) {
      Files.writeString(in().resolve("f" + i), "x");
    }
    CountDownLatch allInside = new CountDownLatch(4);

    start(
        Flow.builder("parallel")
            .processor(
                step(
                    ProcessingType.BLOCKING_IO,
                    () -> {
                      allInside.countDown();
                      release.await();
                    })),
        FileSourceConfig.builder(in()).pollingFrequency(POLL).build());

    assertThat(allInside.await(10, TimeUnit.SECONDS))
        .as("all four files inside the flow at the same time")
        .isTrue();
    try (var files = Files.list(in())) {
      assertThat(files.count()).as("none removed before its flow ended").isEqualTo(4);
    }
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> isEmpty(in()));
  }

  @Test
  void fileWhoseFlowFailedIsReadAgainAtTheNextPollAndThenDeleted() throws IOException {
    Path a = Files.writeString(in().resolve("a.txt"), "x");
    AtomicInteger attempts = new AtomicInteger();

    start(
        Flow.builder("flaky")
            .processor(
                step(
                    ProcessingType.CPU_LITE,
                    () -> {
                      if (attempts.incrementAndGet() == 1) {
                        throw new IllegalStateException("first attempt fails");
                      }
                    })),
        FileSourceConfig.builder(in()).pollingFrequency(POLL).build());

    assertThat(attempts).hasValue(1);
    assertThat(a).exists();

    timer.advance(POLL);

    assertThat(attempts).hasValue(2);
    assertThat(a).doesNotExist();
  }

  @Test
  void fileTheFullFlowRefusedStaysUntilThereIsRoom() throws Exception {
    Path first = Files.writeString(in().resolve("first"), "x");
    Path second = Files.writeString(in().resolve("second"), "x");
    Files.setLastModifiedTime(first, FileTime.from(Instant.EPOCH));
    CountDownLatch inside = new CountDownLatch(1);
    ProcessingStrategy oneAtATime =
        new ProcessingStrategy.Auto(1, ExhaustedAction.REJECT, Duration.ofSeconds(5), 1, 1);

    start(
        Flow.builder("narrow")
            .strategy(oneAtATime)
            .processor(
                step(
                    ProcessingType.BLOCKING_IO,
                    () -> {
                      inside.countDown();
                      release.await();
                    })),
        FileSourceConfig.builder(in()).pollingFrequency(POLL).build());

    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(
            app.meterRegistry().get("sluice.file.refused").tag("flow", "narrow").counter().count())
        .isEqualTo(1);
    assertThat(
            app.meterRegistry().get("sluice.file.failed").tag("flow", "narrow").counter().count())
        .isZero();
    assertThat(second).exists();

    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.notExists(first));
    timer.advance(POLL);
    await().atMost(Duration.ofSeconds(10)).until(() -> isEmpty(in()));
  }

  @Test
  void filesFailingAtEveryPollAreLoggedOnceThenSummarisedAndTheirRecoveryIsLogged()
      throws IOException {
    for (int i = 0; i < 5; i++) {
      Files.writeString(in().resolve("f" + i), "x");
    }
    AtomicBoolean storeFull = new AtomicBoolean(true);
    try (LogCapture log = LogCapture.of(FileSource.class)) {
      start(
          Flow.builder("full")
              .processor(
                  step(
                      ProcessingType.CPU_LITE,
                      () -> {
                        if (storeFull.get()) {
                          throw new IOException("database or disk is full");
                        }
                      })),
          FileSourceConfig.builder(in()).pollingFrequency(POLL).build());

      // 40 polls of five files each: 200 failures, over more than one summary interval.
      timer.advance(POLL.multipliedBy(39));

      assertThat(
              app.meterRegistry().get("sluice.file.failed").tag("flow", "full").counter().count())
          .isEqualTo(200);
      assertThat(log.at(Level.WARN))
          .as("the first failure, then one summary after 30 s")
          .hasSize(2);
      assertThat(log.at(Level.WARN).get(0))
          .startsWith("Flow 'full' failed on '")
          .endsWith("java.io.IOException: database or disk is full");
      assertThat(log.at(Level.WARN).get(1))
          .startsWith(
              "Flow 'full' failing on files of '" + in() + "': 150 more time(s) in the last 30 s");

      storeFull.set(false);
      timer.advance(POLL);

      assertThat(isEmpty(in())).isTrue();
      assertThat(log.at(Level.INFO))
          .contains(
              "Flow 'full' failing on files of '"
                  + in()
                  + "': works again after 200 failure(s) over 40 s (49 since the last line)");
    }
  }

  private static boolean isEmpty(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      return files.findAny().isEmpty();
    }
  }
}
