package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.jdbc.JdbcAccess;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored block whose bytes cannot be read (truncated, or a flipped byte) does not fail its job: a
 * resumed run counts its records failed, with the reason, and goes on; the job completes under
 * {@code maxFailedRecords} and fails, with the same counts every time, over it. On SQLite.
 */
class UnreadableBlockTest {

  @TempDir Path dir;
  private EmbeddedBatch batch;
  private final AtomicReference<BatchEngine.Execution> running = new AtomicReference<>();
  private final AtomicInteger seen = new AtomicInteger();

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir);
  }

  @AfterEach
  void close() {
    batch.close();
  }

  /** 300 numbers in blocks of 50 through two steps; the first run stops at its tenth record. */
  private BatchJob job(long maxFailedRecords) {
    Processor stopper =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() == 10) {
                running.get().stop();
              }
              return m;
            });
    return BatchJob.builder("numbers")
        .input(BatchInput.generator(300, i -> i))
        .blockSize(50)
        .maxFailedRecords(maxFailedRecords)
        .step(BatchStep.builder("watch").processor(stopper).build())
        .step(
            BatchStep.builder("double")
                .processor(Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload(2L)))
                .build())
        .build();
  }

  /** Runs {@code job} until it stops with its blocks stored; returns the first block's number. */
  private long stopWithBlocksStored(BatchJob job) {
    running.set(batch.engine.start(job));
    BatchResult stopped = running.get().result().join();
    assertThat(stopped.state()).isEqualTo(BatchState.STOPPED);
    assertThat(stopped.processed()).as("no block went through both steps").isZero();
    return db().write(
            "find the first block",
            tx -> {
              try (ResultSet rs =
                  tx.prepare("SELECT MIN(block_no) FROM sluice_batch_block").executeQuery()) {
                rs.next();
                return rs.getLong(1);
              }
            });
  }

  private JdbcAccess db() {
    return JdbcAccess.of(batch.storage);
  }

  private void spoil(long block, String sql, Object... parameters) {
    int changed =
        db().write(
                "spoil a block",
                tx -> {
                  PreparedStatement update = tx.prepare(sql);
                  JdbcAccess.bind(update, parameters);
                  return update.executeUpdate();
                });
    assertThat(changed).as("block %d spoiled", block).isEqualTo(1);
  }

  private double unreadableBlocks() {
    var counter =
        batch
            .application
            .meterRegistry()
            .find("sluice.batch.unreadable.blocks")
            .tag("job", "numbers")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aTruncatedBlockCountsItsRecordsFailedAndTheJobCompletesUnderTheLimit() {
    BatchJob job = job(100);
    long block = stopWithBlocksStored(job);
    spoil(
        block,
        "UPDATE sluice_batch_block SET records = substr(records, 1, length(records) - 3)"
            + " WHERE block_no = ?",
        block);

    BatchResult resumed = batch.engine.run(job).result().join();

    assertThat(resumed.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(resumed.loaded()).isEqualTo(300);
    assertThat(resumed.processed()).isEqualTo(300);
    assertThat(resumed.failed()).isEqualTo(50);
    assertThat(resumed.successful()).isEqualTo(250);
    assertThat(resumed.failures())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.error())
                    .startsWith("block " + block + " of 50 record(s) cannot be read: truncated: "));
    assertThat(unreadableBlocks()).isEqualTo(1.0);
  }

  @Test
  void aCorruptBlockOverTheLimitFailsTheJobWithTheSameCountsEveryTime() {
    BatchJob job = job(10);
    long block = stopWithBlocksStored(job);
    byte[] stored =
        db().write(
                "read a block",
                tx -> {
                  PreparedStatement select =
                      tx.prepare("SELECT records FROM sluice_batch_block WHERE block_no = ?");
                  JdbcAccess.bind(select, block);
                  try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                    return rs.getBytes(1);
                  }
                });
    stored[stored.length - 1] ^= 0x5A;
    spoil(block, "UPDATE sluice_batch_block SET records = ? WHERE block_no = ?", stored, block);

    BatchResult resumed = batch.engine.run(job).result().join();

    assertThat(resumed.state()).isEqualTo(BatchState.FAILED);
    assertThat(resumed.failed()).isEqualTo(50);
    assertThat(resumed.failedBeyondLimit()).isEqualTo(40);
    assertThat(resumed.processed()).as("no block was dispatched after it").isEqualTo(50);
    assertThat(resumed.message()).contains("50 record(s) failed, more than maxFailedRecords 10");
    assertThat(resumed.failures())
        .singleElement()
        .satisfies(r -> assertThat(r.error()).contains("cannot be read: checksum mismatch: "));
    assertThat(unreadableBlocks()).isEqualTo(1.0);
  }
}
