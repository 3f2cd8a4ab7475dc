package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failed records an instance keeps in its store: each once, with its line, the step that failed
 * it and why, readable from another connection while the process running the job holds the embedded
 * store (what {@code sluice batch failures} does beside {@code sluice run}); up to the job's {@code
 * keepFailedRecords}, beyond which only the count grows.
 */
class AnInstanceKeepsItsFailedRecordsTest {

  @TempDir Path dir;
  private EmbeddedBatch batch;

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir);
  }

  @AfterEach
  void close() {
    batch.close();
  }

  private BatchInstances beside() {
    return BatchInstances.open(
        StorageConfig.builder().dataDir(dir).build(),
        EmbeddedBatch.VALUES,
        getClass().getClassLoader());
  }

  private static Processor failing(java.util.function.LongPredicate fails) {
    return Processor.of(
        ProcessingType.CPU_LITE,
        m -> {
          long n = (Long) m.payload();
          if (fails.test(n)) {
            throw new IllegalArgumentException("no " + n);
          }
          return m;
        });
  }

  @Test
  void aCsvWithBadLinesKeepsEachWithItsLineNumberStepAndError() throws Exception {
    Path csv = dir.resolve("orders.csv");
    Files.writeString(
        csv,
        "id,amount\n" + "1,10.50\n" + "2,n/a\n" + "3\n" + "4,\"7.25\n" + "5,3\n",
        StandardCharsets.UTF_8);
    BatchJob job =
        BatchJob.builder("orders")
            .input(BatchInput.csv(csv))
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("price")
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              @SuppressWarnings("unchecked")
                              Map<String, String> row = (Map<String, String>) m.payload();
                              return m.withPayload(new BigDecimal(row.get("amount")));
                            }))
                    .build())
            .build();

    BatchResult result = batch.engine.start(job).result().get(30, TimeUnit.SECONDS);

    assertThat(result.failed()).isEqualTo(3);
    try (BatchInstances instances = beside()) {
      List<BatchFailure> failures = instances.failures(result.instance(), 0, 10);
      assertThat(failures)
          .extracting(BatchFailure::position, BatchFailure::step)
          .containsExactly(tuple(3L, "price"), tuple(4L, BatchRecord.INPUT), tuple(5L, "input"));
      assertThat(failures.get(0).error()).startsWith("NumberFormatException");
      assertThat(failures.get(1).error()).isEqualTo("line 4 has 1 field(s), the header names 2");
      assertThat(failures.get(2).error()).isEqualTo("line 5 has a quote that is not closed");
      assertThat(failures)
          .extracting(BatchFailure::payload)
          .containsExactly("{id=2, amount=n/a}", "3", "4,\"7.25");
      assertThat(failures.getFirst().time()).isNotNull();
      assertThat(instances.failures(result.instance(), 4, 1))
          .extracting(BatchFailure::position)
          .containsExactly(4L);
      assertThat(instances.failures(999, 0, 10)).isEmpty();
      assertThatThrownBy(() -> instances.failures(result.instance(), 0, 0))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(batch.engine.failures(result.instance(), 0, 10)).hasSize(3);
  }

  @Test
  void aRecordFailedAtTwoStepsIsKeptOnceAtTheFirst() throws Exception {
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(300, i -> i))
            .blockSize(25)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(BatchStep.builder("thirds").processor(failing(n -> n % 3 == 0)).build())
            .step(
                BatchStep.builder("all")
                    .accept(AcceptPolicy.ALL)
                    .processor(failing(n -> true))
                    .build())
            .build();

    BatchResult result = batch.engine.start(job).result().get(30, TimeUnit.SECONDS);

    assertThat(result.failed()).isEqualTo(300);
    List<BatchFailure> failures = batch.engine.failures(result.instance(), 0, 1000);
    assertThat(failures).hasSize(300);
    assertThat(failures).extracting(BatchFailure::position).doesNotHaveDuplicates();
    assertThat(failures).filteredOn(f -> f.step().equals("thirds")).hasSize(100);
    assertThat(failures).filteredOn(f -> f.step().equals("all")).hasSize(200);
  }

  @Test
  void beyondKeepFailedRecordsOnlyTheCountGrows() throws Exception {
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(1_000, i -> i))
            .blockSize(30)
            .maxFailedRecords(BatchJob.UNLIMITED)
            .keepFailedRecords(50)
            .step(BatchStep.builder("none").processor(failing(n -> true)).build())
            .build();

    BatchResult result = batch.engine.start(job).result().get(30, TimeUnit.SECONDS);

    assertThat(result.failed()).isEqualTo(1_000);
    try (BatchInstances instances = beside()) {
      List<BatchFailure> kept = instances.failures(result.instance(), 0, 1_000);
      assertThat(kept).hasSize(50);
      assertThat(kept).extracting(BatchFailure::position).doesNotHaveDuplicates().isSorted();
      assertThat(kept)
          .allSatisfy(f -> assertThat(f.error()).startsWith("IllegalArgumentException"));
    }
  }

  @Test
  void aFileAnOlderSluiceLastOpenedHasNoFailuresKeptButItsInstancesAreListed() throws Exception {
    BatchJob job =
        BatchJob.builder("numbers")
            .input(BatchInput.generator(10, i -> i))
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(BatchStep.builder("none").processor(failing(n -> true)).build())
            .build();
    BatchResult result = batch.engine.start(job).result().get(30, TimeUnit.SECONDS);
    try (java.sql.Connection c =
        java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"))) {
      c.createStatement().execute("DROP TABLE sluice_batch_failure");
    }

    try (BatchInstances instances = beside()) {
      assertThat(instances.find(result.instance())).isPresent();
      assertThat(instances.failures(result.instance(), 0, 10)).isEmpty();
    }
  }

  @Test
  void aBoundOutOfRangeIsRefusedNamingTheKey() {
    assertThatThrownBy(
            () ->
                BatchJob.builder("numbers")
                    .input(BatchInput.generator(1, i -> i))
                    .keepFailedRecords(1_000_001)
                    .step(BatchStep.builder("none").build())
                    .build())
        .hasMessageContaining("keepFailedRecords")
        .hasMessageContaining("1000001")
        .hasMessageContaining("must be from 0 to 1000000");
  }
}
