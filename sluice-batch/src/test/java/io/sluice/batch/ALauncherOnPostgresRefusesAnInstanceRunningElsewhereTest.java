package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.internal.BlockStore;
import io.sluice.core.app.Application;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On PostgreSQL, which every node shares, {@link BatchLauncher#resume(long)} leaves alone an
 * instance that is running in the store but not in this process (another node may be running it),
 * and resumes it once it is stopped; its failed records are read back through the shared store.
 */
class ALauncherOnPostgresRefusesAnInstanceRunningElsewhereTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Test
  void aRunningInstanceIsRefusedAndResumedOnceStopped() throws Exception {
    DB.dropTables();
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(1_000, i -> i))
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("sevens")
                    .processor(
                        io.sluice.core.spi.Processor.of(
                            io.sluice.core.spi.ProcessingType.CPU_LITE,
                            m -> {
                              if ((Long) m.payload() % 10 == 7) {
                                throw new IllegalArgumentException("no sevens");
                              }
                              return m;
                            }))
                    .build())
            .build();
    try (Storage storage =
            new PostgresStorageFactory()
                .open(
                    DB.config(),
                    EmbeddedBatch.VALUES,
                    new SimpleMeterRegistry(),
                    Clock.systemUTC());
        Application application =
            Application.builder().storage(storage).storedValues(EmbeddedBatch.VALUES).build()) {
      BatchLauncher launcher = new BatchLauncher(List.of(job));
      launcher.bind(application);
      BlockStore store = new BlockStore(JdbcAccess.of(storage), EmbeddedBatch.VALUES);
      long id = store.create("numbers", job.definition());

      assertThatThrownBy(() -> launcher.resume(id))
          .isInstanceOf(BatchStartRefusedException.class)
          .hasMessageContaining("it is LOADING in postgresql")
          .hasMessageContaining("not in this process: another node runs it");

      store.state(id, BatchState.STOPPED, "stopped");
      BatchResult result = launcher.resume(id).result().get(30, TimeUnit.SECONDS);

      assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
      assertThat(result.failed()).isEqualTo(100);
      try (BatchInstances instances =
          BatchInstances.open(DB.config(), EmbeddedBatch.VALUES, getClass().getClassLoader())) {
        assertThat(instances.failures(id, 0, 1_000))
            .hasSize(100)
            .allSatisfy(
                f ->
                    assertThat(f.payload())
                        .isEqualTo(Long.toString(f.position() - 1))
                        .endsWith("7"));
      }
    }
  }
}
