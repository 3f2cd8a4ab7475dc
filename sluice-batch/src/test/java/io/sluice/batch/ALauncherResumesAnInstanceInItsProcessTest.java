package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.batch.internal.BlockStore;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.jdbc.JdbcAccess;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BatchLauncher#resume(long)}, what the console of {@code sluice run} calls, on a real
 * embedded store: a stopped instance goes on in this process to its end; every other case is
 * refused with the reason and changes nothing.
 */
class ALauncherResumesAnInstanceInItsProcessTest {

  private static final long RECORDS = 20_000;

  @TempDir Path dir;
  private EmbeddedBatch batch;
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);
  private final AtomicLong seen = new AtomicLong();
  private BatchLauncher launcher;

  /** Counts the records; the 500th waits until the test opens the gate. */
  private final Processor gate =
      Processor.of(
          ProcessingType.CPU_LITE,
          m -> {
            if (seen.incrementAndGet() == 500) {
              reached.countDown();
              open.await(30, TimeUnit.SECONDS);
            }
            return m;
          });

  private final BatchJob job =
      BatchJob.builder("numbers")
          .input(BatchInput.generator(RECORDS, i -> i))
          .step(BatchStep.builder("gate").processor(gate).build())
          .build();

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir);
    launcher = new BatchLauncher(List.of(job));
    launcher.bind(batch.application);
  }

  @AfterEach
  void close() throws Exception {
    open.countDown();
    launcher.stopAll(java.time.Duration.ofSeconds(30));
    batch.close();
  }

  /** An instance stopped at its 500th record. */
  private long stopped() throws Exception {
    BatchEngine.Execution execution = launcher.start("numbers", null);
    assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
    execution.stop();
    open.countDown();
    assertThat(execution.result().get(30, TimeUnit.SECONDS).state()).isEqualTo(BatchState.STOPPED);
    return execution.instance();
  }

  @Test
  void aStoppedInstanceGoesOnHereToItsEndAndThenCannotBeResumedAgain() throws Exception {
    long id = stopped();

    BatchResult result = launcher.resume(id).result().get(30, TimeUnit.SECONDS);

    assertThat(result.instance()).isEqualTo(id);
    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(RECORDS);
    assertThatThrownBy(() -> launcher.resume(id))
        .isInstanceOf(BatchStartRefusedException.class)
        .hasMessage(
            "Batch instance "
                + id
                + " cannot be resumed here: instance "
                + id
                + " is COMPLETED: it ended and cannot be resumed");
  }

  @Test
  void anInstanceRunningHereIsRefused() throws Exception {
    BatchEngine.Execution execution = launcher.start("numbers", null);
    assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> launcher.resume(execution.instance()))
        .isInstanceOf(BatchStartRefusedException.class)
        .hasMessageEndingWith("instance " + execution.instance() + " runs already");
    open.countDown();
    assertThat(execution.result().get(30, TimeUnit.SECONDS).state())
        .isEqualTo(BatchState.COMPLETED);
  }

  @Test
  void anInstanceAKilledProcessLeftRunningInTheEmbeddedStoreIsResumed() throws Exception {
    // As a process killed mid-run leaves it: created, loading, run by nobody. Only this process
    // can open the embedded store, so nobody else runs it.
    long id =
        new BlockStore(JdbcAccess.of(batch.storage), EmbeddedBatch.VALUES)
            .create("numbers", job.definition());
    open.countDown();

    BatchResult result = launcher.resume(id).result().get(30, TimeUnit.SECONDS);

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(RECORDS);
  }

  @Test
  void anUnknownInstanceOrOneOfAJobTheConfigurationLacksIsRefused() throws Exception {
    BatchJob other =
        BatchJob.builder("other")
            .input(BatchInput.generator(10, i -> i))
            .step(BatchStep.builder("none").build())
            .build();
    long foreign =
        new BlockStore(JdbcAccess.of(batch.storage), EmbeddedBatch.VALUES)
            .create("other", other.definition());

    assertThatThrownBy(() -> launcher.resume(424242))
        .isInstanceOf(BatchStartRefusedException.class)
        .hasMessageStartingWith(
            "Batch instance 424242 cannot be resumed here: there is no batch instance 424242 in"
                + " sqlite");
    assertThatThrownBy(() -> launcher.resume(foreign))
        .isInstanceOf(BatchStartRefusedException.class)
        .hasMessageContaining("it belongs to batch job 'other', which the configuration does not")
        .satisfies(e -> assertThat(((BatchStartRefusedException) e).job()).isEqualTo("other"));
    assertThat(batch.engine.instance(foreign).orElseThrow().state())
        .as("nothing changed")
        .isEqualTo(BatchState.LOADING);
  }

  @Test
  void anUnboundLauncherSaysSo() {
    assertThatThrownBy(() -> new BatchLauncher(List.of(job)).resume(1))
        .hasMessageContaining("not bound to the application");
  }
}
