package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.file.FileSource;
import io.sluice.core.file.FileSourceConfig;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The outage that flooded the log: a file source feeds a persistent flow whose SQLite store is full
 * (the writer's {@code max_page_count} is its page count, so every enqueue fails with SQLITE_FULL
 * as on a full disk). Every waiting file fails at every poll; the log gets one WARN line and a
 * summary per interval, not one line per file per poll, and a line when the store takes writes
 * again.
 */
class FullSqliteStoreDoesNotFloodTheLogTest {

  private static final Duration POLL = Duration.ofSeconds(1);
  private static final int FILES = 20;

  @TempDir Path dir;

  private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final ManualTimerService timer = new ManualTimerService(clock);
  private final Logger sluice = (Logger) LoggerFactory.getLogger("io.sluice");
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();

  @BeforeEach
  void capture() {
    log.start();
    sluice.addAppender(log);
  }

  @AfterEach
  void detach() {
    sluice.detachAppender(log);
  }

  @Test
  void filesFailingAtEveryPollOnAFullStoreLogOneLineAndASummaryNotOnePerFile() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Random random = new Random(11);
    for (int i = 0; i < FILES; i++) {
      byte[] bytes = new byte[64 * 1024];
      random.nextBytes(bytes);
      Files.write(in.resolve("f" + i), bytes);
    }
    ThreadingProfile profile = ThreadingProfile.builder().maxThreadsActive(2).build();
    try (JdbcStorage storage = TestStorages.sqlite(dir.resolve("data"), Clock.systemUTC());
        Application app =
            Application.builder()
                .storage(storage)
                .clock(clock)
                .timer(timer)
                .shutdownTimeout(Duration.ofSeconds(5))
                .flow(
                    Flow.builder("ingest")
                        .strategy(new ProcessingStrategy.Staged(profile, profile, profile, true))
                        .source(
                            new FileSource(
                                FileSourceConfig.builder(in).pollingFrequency(POLL).build()))
                        .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                        .build())
                .build()) {
      fill(storage, true);
      app.start();

      // 60 polls of 20 files: 1,200 failed enqueues over two summary intervals.
      timer.runDue();
      timer.advance(POLL.multipliedBy(59));

      assertThat(
              app.meterRegistry().get("sluice.file.failed").tag("flow", "ingest").counter().count())
          .isEqualTo(60 * FILES);
      List<String> warnings = messages(Level.WARN);
      assertThat(warnings).as("the first failure and one summary per 30 s").hasSize(2);
      assertThat(warnings.get(0)).startsWith("Flow 'ingest' failed on '").contains("full");
      assertThat(warnings.get(1))
          .startsWith(
              "Flow 'ingest' failing on files of '" + in + "': 600 more time(s) in the last 30 s");
      assertThat(messages(Level.ERROR)).isEmpty();

      fill(storage, false);
      timer.advance(POLL);

      // The files past maxConcurrentFiles go at the polls the finished ones trigger on the timer.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                timer.runDue();
                return isEmpty(in);
              });
      assertThat(messages(Level.INFO))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith(
                          "Flow 'ingest' failing on files of '"
                              + in
                              + "': works again after "
                              + 60 * FILES
                              + " failure(s)"));
      assertThat(messages(Level.WARN)).hasSize(2);
    }
  }

  /** Caps the writer's database at its current size (full) or lifts the cap. */
  private static void fill(JdbcStorage storage, boolean full) {
    storage.write(
        full ? "fill the disk" : "make room",
        tx -> {
          try (var statement = tx.connection().createStatement()) {
            long pages = 1_000_000;
            if (full) {
              try (var rs = statement.executeQuery("PRAGMA page_count")) {
                rs.next();
                pages = rs.getLong(1);
              }
            }
            statement.execute("PRAGMA max_page_count = " + pages);
            return pages;
          }
        });
  }

  private List<String> messages(Level level) {
    synchronized (log) {
      return log.list.stream()
          .filter(e -> e.getLevel() == level)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  private static boolean isEmpty(Path directory) throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.findAny().isEmpty();
    }
  }
}
