package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import io.sluice.testkit.RemoteJmx;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop asked through the store, as another process asks it ({@link BatchInstances} reaches an
 * embedded store the running process owns through a connection of its own): the run stops as a
 * local stop does, and the instances are listed meanwhile.
 */
class StopAskedThroughTheStoreTest {

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  @TempDir Path dir;
  private StorageConfig config;
  private Storage storage;
  private Application application;

  @BeforeEach
  void open() {
    config = StorageConfig.builder().dataDir(dir).build();
    storage =
        new SqliteStorageFactory()
            .open(config, VALUES, new SimpleMeterRegistry(), Clock.systemUTC());
    application = Application.builder().storage(storage).storedValues(VALUES).build();
  }

  @AfterEach
  void close() {
    application.close();
    storage.close();
  }

  @Test
  void aRunStopsWhenAnotherConnectionAsksAndTheInstanceIsListedStopped() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch asked = new CountDownLatch(1);
    AtomicLong seen = new AtomicLong();
    Processor gate =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() >= 1000) {
                reached.countDown();
                asked.await(30, TimeUnit.SECONDS);
              }
              return m;
            });
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(1_000_000, i -> i))
            .step(BatchStep.builder("gate").processor(gate).build())
            .build();
    BatchEngine.Execution execution = BatchEngine.of(application).start(job);
    assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();

    try (BatchInstances instances =
        BatchInstances.open(config, VALUES, getClass().getClassLoader())) {
      assertThat(instances.find(execution.instance()).orElseThrow().state())
          .isIn(BatchState.LOADING, BatchState.RUNNING);
      assertThat(instances.requestStop(execution.instance())).isTrue();
      assertThat(instances.find(execution.instance()).orElseThrow().stopRequested()).isTrue();
      asked.countDown();

      BatchResult result = execution.result().get(30, TimeUnit.SECONDS);

      assertThat(result.state()).isEqualTo(BatchState.STOPPED);
      assertThat(result.processed()).isLessThan(1_000_000);
      BatchInstance listed = instances.list("numbers", 10).getFirst();
      assertThat(listed.id()).isEqualTo(execution.instance());
      assertThat(listed.state()).isEqualTo(BatchState.STOPPED);
      assertThat(listed.stopRequested()).as("answered").isFalse();
      assertThat(listed.processed()).isEqualTo(result.processed());
      assertThat(instances.requestStop(execution.instance())).as("stopped already").isFalse();
    } finally {
      asked.countDown();
    }
  }

  @Test
  void anOperatorStopsAnInstanceOverJmx() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    AtomicLong seen = new AtomicLong();
    Processor slow =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() == 1000) {
                reached.countDown();
              }
              return m;
            });
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(100_000_000, i -> i))
            .step(BatchStep.builder("count").processor(slow).build())
            .build();
    BatchEngine.Execution execution = BatchEngine.of(application).start(job);
    assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();

    try (AutoCloseable bean = BatchJmx.register(config, VALUES, getClass().getClassLoader());
        RemoteJmx jmx = RemoteJmx.connect()) {
      BatchJmx.BatchInstancesMXBean remote =
          jmx.proxy(
              io.sluice.core.app.Jmx.name("BatchInstances", "store"),
              BatchJmx.BatchInstancesMXBean.class);
      assertThat(remote.list(10))
          .singleElement()
          .asString()
          .startsWith(execution.instance() + " numbers ");
      assertThat(remote.stop(execution.instance())).contains("asked to stop");

      BatchResult result = execution.result().get(30, TimeUnit.SECONDS);

      assertThat(result.state()).isEqualTo(BatchState.STOPPED);
      assertThat(remote.stop(execution.instance()))
          .isEqualTo("instance " + execution.instance() + " is STOPPED: nothing to stop");
      assertThat(remote.stop(42)).startsWith("there is no instance 42 in sqlite");
    }
  }

  @Test
  void aStoreWithoutTheFileHasNoInstancesAndIsNotCreated() {
    StorageConfig elsewhere = StorageConfig.builder().dataDir(dir.resolve("none")).build();

    try (BatchInstances instances =
        BatchInstances.open(elsewhere, VALUES, getClass().getClassLoader())) {
      assertThat(instances.list(null, 10)).isEmpty();
      assertThat(instances.find(1)).isEmpty();
      assertThat(instances.requestStop(1)).isFalse();
      assertThat(instances.describe()).contains(dir.resolve("none").toString());
    }
    assertThat(dir.resolve("none")).doesNotExist();
  }

  @Test
  void theInstancesOfTheOwningProcessAreListedWithTheirCountsAndResult() {
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(500, i -> i))
            .step(
                BatchStep.builder("copy")
                    .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                    .build())
            .build();
    long id = BatchEngine.of(application).start(job).result().join().instance();

    try (BatchInstances instances =
        BatchInstances.open(config, VALUES, getClass().getClassLoader())) {
      BatchInstance done = instances.find(id).orElseThrow();
      assertThat(done.state()).isEqualTo(BatchState.COMPLETED);
      assertThat(done.loaded()).isEqualTo(500);
      assertThat(done.processed()).isEqualTo(500);
      assertThat(done.running()).isFalse();
      assertThat(done.result()).startsWith("COMPLETED: loaded 500, processed 500");
    }
  }
}
