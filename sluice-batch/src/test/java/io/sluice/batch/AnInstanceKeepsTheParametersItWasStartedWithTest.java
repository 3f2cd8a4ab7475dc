package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instance's parameters (Spring Batch's job parameters; the starting message's variables for a
 * start from a flow) are kept with it: every record's message carries them as variables, in the
 * accept expression and the processors of every step, after a stop and a resume too; a start
 * resumes only an instance of the same parameters; a value that cannot be stored refuses the start
 * naming it.
 */
class AnInstanceKeepsTheParametersItWasStartedWithTest {

  @TempDir Path dir;

  /** Each record's "day" variable as its step saw it, by position. */
  private final Map<Long, Object> daySeen = new ConcurrentHashMap<>();

  private final AtomicLong records = new AtomicLong();
  private final AtomicReference<BatchEngine.Execution> running = new AtomicReference<>();
  private volatile long stopAt = -1;

  private BatchJob job(long count) {
    return BatchJob.builder("daily")
        .input(BatchInput.generator(count, i -> i))
        .blockSize(50)
        .step(
            BatchStep.builder("note")
                .acceptExpression("vars.day != null && vars.position >= 0")
                .processor(
                    Processor.of(
                        ProcessingType.CPU_LITE,
                        m -> {
                          daySeen.put((Long) m.variable("position"), m.variable("day"));
                          if (records.incrementAndGet() == stopAt) {
                            running.get().stop();
                          }
                          return m;
                        }))
                .build())
        .build();
  }

  @Test
  void everyRecordSeesTheParametersAndAResumedInstanceStillHasThem() {
    BatchJob job = job(2000);
    stopAt = 700;
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      running.set(batch.engine.start(job, Map.of("day", "2026-11-27")));
      BatchResult stopped = running.get().result().join();
      assertThat(stopped.state()).isEqualTo(BatchState.STOPPED);
      assertThat(stopped.processed()).isLessThan(2000);
    }
    stopAt = -1;
    try (EmbeddedBatch reopened = new EmbeddedBatch(dir)) {
      BatchResult resumed = reopened.engine.run(job, Map.of("day", "2026-11-27")).result().join();

      assertThat(resumed.state()).isEqualTo(BatchState.COMPLETED);
      assertThat(resumed.processedThisRun()).isPositive();
      assertThat(resumed.steps()).containsEntry("note", new StepCounts(2000, 0, 0));
      assertThat(daySeen).hasSize(2000);
      assertThat(Set.copyOf(daySeen.values())).containsExactly("2026-11-27");
    }
  }

  @Test
  void aStartResumesOnlyTheUnfinishedInstanceOfTheSameParameters() {
    BatchJob job = job(500);
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      stopAt = 100;
      running.set(batch.engine.start(job, Map.of("day", "monday")));
      long monday = running.get().result().join().instance();

      stopAt = -1;
      BatchResult tuesday = batch.engine.run(job, Map.of("day", "tuesday")).result().join();
      assertThat(tuesday.instance()).as("another day is another instance").isNotEqualTo(monday);
      assertThat(tuesday.state()).isEqualTo(BatchState.COMPLETED);

      BatchResult mondayAgain = batch.engine.run(job, Map.of("day", "monday")).result().join();
      assertThat(mondayAgain.instance()).isEqualTo(monday);
      assertThat(mondayAgain.state()).isEqualTo(BatchState.COMPLETED);
    }
  }

  @Test
  void aParameterThatCannotBeStoredRefusesTheStartNamingIt() {
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      Object notStorable = new Object();
      assertThatThrownBy(
              () -> batch.engine.start(job(10), Map.of("day", "x", "connection", notStorable)))
          .isInstanceOf(SluiceException.class)
          .hasMessageContaining("Batch job 'daily' cannot start: its parameter 'connection'")
          .hasMessageContaining("(a java.lang.Object) cannot be stored with the instance");
      assertThat(batch.engine.instances("daily", 10)).as("nothing was created").isEmpty();
    }
  }

  @Test
  void aStartFromAFlowTakesTheMessagesVariablesAndTheResultCarriesThemToItsFlow() throws Exception {
    List<Message> results = new CopyOnWriteArrayList<>();
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      BatchLauncher launcher = new BatchLauncher(List.of(job(300)));
      Application app =
          Application.builder()
              .storage(batch.storage)
              .storedValues(EmbeddedBatch.VALUES)
              .flow(
                  Flow.builder("start")
                      .processor(new BatchExecuteProcessor(launcher, "daily", "instance", "report"))
                      .build())
              .flow(
                  Flow.builder("report")
                      .processor(
                          Processor.of(
                              ProcessingType.CPU_LITE,
                              m -> {
                                results.add(m);
                                return m;
                              }))
                      .build())
              .build();
      launcher.bind(app);
      app.start();
      try {
        app.send("start", Message.of("go").withVariable("day", "friday")).get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> !results.isEmpty());

        assertThat(results.getFirst().variable("day")).isEqualTo("friday");
        assertThat(((BatchResult) results.getFirst().payload()).processed()).isEqualTo(300);
        assertThat(daySeen).hasSize(300);
        assertThat(Set.copyOf(daySeen.values())).containsExactly("friday");
      } finally {
        assertThat(launcher.stopAll(Duration.ofSeconds(30))).isTrue();
        app.stop();
      }
    }
  }
}
