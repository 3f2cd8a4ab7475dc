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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow starts a batch job (batch:execute): the instance's id comes back at once, the job runs in
 * the process on the application's store, its result reaches a flow when it ends, and a second
 * start while it runs is refused naming it.
 */
class ABatchJobStartedFromAFlowTest {

  @TempDir Path dir;

  private final CountDownLatch release = new CountDownLatch(1);
  private final List<Object> results = new CopyOnWriteArrayList<>();

  /** 500 records; its step waits for the test's release. */
  private BatchJob job() {
    return BatchJob.builder("nightly")
        .input(BatchInput.generator(500, i -> i))
        .maxFailedRecords(BatchJob.UNLIMITED)
        .step(
            BatchStep.builder("work")
                .processor(
                    Processor.of(
                        ProcessingType.BLOCKING_IO,
                        m -> {
                          release.await(30, TimeUnit.SECONDS);
                          return m;
                        }))
                .build())
        .build();
  }

  private Application app(EmbeddedBatch batch, BatchLauncher launcher) {
    return Application.builder()
        .storage(batch.storage)
        .storedValues(EmbeddedBatch.VALUES)
        .flow(
            Flow.builder("start")
                .processor(new BatchExecuteProcessor(launcher, "nightly", "instance", "report"))
                .build())
        .flow(
            Flow.builder("report")
                .processor(
                    Processor.of(
                        ProcessingType.CPU_LITE,
                        m -> {
                          results.add(m.payload());
                          return m;
                        }))
                .build())
        .build();
  }

  @Test
  void theIdComesBackAtOnceAndTheResultReachesAFlowWhenTheJobEnds() throws Exception {
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      BatchLauncher launcher = new BatchLauncher(List.of(job()));
      Application app = app(batch, launcher);
      launcher.bind(app);
      app.start();
      try {
        Message started = app.send("start", Message.of("go")).get(10, TimeUnit.SECONDS);
        long instance = (Long) started.variable("instance");
        assertThat(started.payload()).isEqualTo("go");
        assertThat(results).as("the job waits for the release").isEmpty();

        assertThatThrownBy(() -> app.send("start", Message.of("again")).join())
            .hasRootCauseInstanceOf(SluiceException.class)
            .hasRootCauseMessage(
                "Batch job 'nightly' has instance "
                    + instance
                    + " running; a second instance would read the same input ("
                    + job().input().describe()
                    + ") again. Start it again once that one ended");

        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> !results.isEmpty());
        assertThat(results)
            .singleElement()
            .isInstanceOfSatisfying(
                BatchResult.class,
                r -> {
                  assertThat(r.instance()).isEqualTo(instance);
                  assertThat(r.completed()).isTrue();
                  assertThat(r.processed()).isEqualTo(500);
                });
        long next =
            (Long)
                app.send("start", Message.of("later"))
                    .get(10, TimeUnit.SECONDS)
                    .variable("instance");
        assertThat(next).isGreaterThan(instance);
      } finally {
        assertThat(launcher.stopAll(Duration.ofSeconds(30))).isTrue();
        app.stop();
      }
    }
  }

  @Test
  void anUnboundLauncherSaysWhatToDo() {
    BatchLauncher launcher = new BatchLauncher(List.of(job()));

    assertThatThrownBy(() -> launcher.start("nightly", null))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("its launcher is not bound to the application")
        .hasMessageContaining("BatchLauncher.bind(application)");
    assertThatThrownBy(() -> launcher.start("weekly", null))
        .hasMessage("There is no batch job 'weekly' to start; the configuration has [nightly]");
  }
}
