package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's CSV output ({@link BatchOutput#csv}) on the embedded store: every successful record is a
 * line, in input order, once; a run stopped mid-job and resumed after a crash left lines no commit
 * counts writes each line once; a file cut behind the job's back fails the resume, naming it.
 */
class ACsvOutputHoldsEachRecordOnceInInputOrderTest {

  @TempDir Path dir;
  private EmbeddedBatch batch;
  private Path in;
  private Path out;

  @BeforeEach
  void open() {
    batch = new EmbeddedBatch(dir.resolve("store"));
    in = dir.resolve("orders.csv");
    out = dir.resolve("out/orders-out.csv");
  }

  @AfterEach
  void close() {
    batch.close();
  }

  private BatchJob job(Processor... extra) {
    BatchStep.Builder step = BatchStep.builder("transform");
    Arrays.stream(extra).forEach(step::processor);
    step.processor(OrdersCsv.transform());
    return BatchJob.builder("orders")
        .input(BatchInput.csv(in))
        .output(BatchOutput.csv(out, OrdersCsv.COLUMNS))
        .blockSize(50)
        .maxFailedRecords(BatchJob.UNLIMITED)
        .step(step.build())
        .build();
  }

  @Test
  void aJobOfTheMessageMayNotHaveAnOutputEachMessageWouldWriteItAfresh() {
    assertThatThrownBy(
            () ->
                BatchJob.builder("orders")
                    .input(BatchInput.message())
                    .output(BatchOutput.csv(out, OrdersCsv.COLUMNS))
                    .step(BatchStep.builder("transform").processor(OrdersCsv.transform()).build())
                    .build())
        .hasMessageContaining("output")
        .hasMessageContaining("starts an instance per message");
  }

  private List<String> lines() throws IOException {
    return Files.readAllLines(out, StandardCharsets.UTF_8);
  }

  @Test
  void eachSuccessfulRecordIsALineInInputOrderAndTheFailedOnesAreLeftOut() throws Exception {
    OrdersCsv.write(in, 2_000);

    BatchResult result = batch.engine.start(job()).result().join();

    assertThat(result.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.processed()).isEqualTo(2_000);
    assertThat(result.failed()).isEqualTo(OrdersCsv.failures(2_000));
    assertThat(result.successful()).isEqualTo(2_000 - OrdersCsv.failures(2_000));
    assertThat(lines()).containsExactlyElementsOf(OrdersCsv.expected(2_000));
    // Samples come in the order blocks finish: any of those the output failed says why.
    assertThat(result.failures())
        .filteredOn(r -> r.failedAt().equals(BatchRecord.OUTPUT))
        .isNotEmpty()
        .allSatisfy(
            r -> {
              assertThat((r.position() - 1) % 101)
                  .as("line %d holds an id of 101 n", r.position())
                  .isZero();
              assertThat(r.error())
                  .isEqualTo(
                      "the output cannot write it: IllegalArgumentException: the payload has no"
                          + " 'date' (its keys: [id, name, amount])");
            });
    assertThat(Files.readString(out)).endsWith("\n");
  }

  @Test
  void aRunResumedAfterACrashLeftLinesNoCommitCountsWritesEachLineOnce() throws Exception {
    OrdersCsv.write(in, 3_000);
    AtomicReference<BatchEngine.Execution> running = new AtomicReference<>();
    AtomicLong seen = new AtomicLong();
    Processor stopper =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() == 1_000) {
                running.get().stop();
              }
              return m;
            });
    running.set(batch.engine.start(job(stopper)));
    BatchResult stopped = running.get().result().join();
    assertThat(stopped.state()).isEqualTo(BatchState.STOPPED);
    List<String> expected = OrdersCsv.expected(3_000);
    List<String> written = lines();
    // A stop lets blocks in flight finish their step, but a block not yet at its step when it
    // came leaves a gap: the blocks behind it stay in the store unwritten. Under auto the records
    // of later blocks may pass first, so the gap may come before block 0: the header alone.
    assertThat(written.size())
        .as("the header and at most a part of the lines: %s", stopped)
        .isBetween(1, expected.size() - 1);
    assertThat(written)
        .as("what a stopped run leaves is the start of the output, in order")
        .containsExactlyElementsOf(expected.subList(0, written.size()));
    // What a process killed between a write and its commit leaves: lines no commit counts (their
    // blocks are still in the store), the last one cut.
    Files.writeString(out, "2999,NOT YET,1.00,2026-11-29\n3000,HALF", StandardOpenOption.APPEND);

    BatchResult resumed = batch.engine.run(job(stopper)).result().join();

    assertThat(resumed.instance()).isEqualTo(stopped.instance());
    assertThat(resumed.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(resumed.processed()).isEqualTo(3_000);
    assertThat(lines()).containsExactlyElementsOf(expected);
  }

  @Test
  void anOutputCutShorterThanItsCommitsFailsTheResumeNamingTheFile() throws Exception {
    OrdersCsv.write(in, 3_000);
    AtomicReference<BatchEngine.Execution> running = new AtomicReference<>();
    AtomicLong seen = new AtomicLong();
    Processor stopper =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              if (seen.incrementAndGet() == 1_000) {
                running.get().stop();
              }
              return m;
            });
    running.set(batch.engine.start(job(stopper)));
    assertThat(running.get().result().join().state()).isEqualTo(BatchState.STOPPED);
    try (FileChannel file = FileChannel.open(out, StandardOpenOption.WRITE)) {
      file.truncate(100);
    }

    BatchResult resumed = batch.engine.run(job(stopper)).result().join();

    assertThat(resumed.state()).isEqualTo(BatchState.FAILED);
    assertThat(resumed.message())
        .contains(out.toAbsolutePath().toString())
        .contains("has 100 bytes")
        .contains("it was cut or replaced since");
    assertThat(Files.size(out)).as("the file is left as it was found").isEqualTo(100);
  }

  @Test
  void valuesWithCommasQuotesAndLineEndsAreReadBackAsTheyWereWritten() throws Exception {
    BatchOutput output = BatchOutput.csv(out, List.of("id", "text", "amount", "empty"));
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("extra", "left out");
    row.put("id", 7L);
    row.put("text", "say \"hi\", then\nleave");
    row.put("amount", new BigDecimal("1E+3"));
    row.put("empty", null);
    String line = output.line(row);
    assertThat(line).isEqualTo("7,\"say \"\"hi\"\", then\nleave\",1000,\n");
    assertThat(output.line(List.of("a,b", 2, "", "x"))).isEqualTo("\"a,b\",2,,x\n");

    // Without a line end inside a field, what BatchInput.csv reads is what was written.
    row.put("text", "say \"hi\", then leave");
    Files.createDirectories(out.getParent());
    Files.writeString(out, output.header() + output.line(row));
    List<BatchRecord> read = new ArrayList<>();
    try (BatchInput.Reader reader = BatchInput.csv(out).open(0)) {
      for (BatchRecord r = reader.next(); r != null; r = reader.next()) {
        read.add(r);
      }
    }
    assertThat(read)
        .singleElement()
        .extracting(BatchRecord::payload)
        .isEqualTo(
            Map.of("id", "7", "text", "say \"hi\", then leave", "amount", "1000", "empty", ""));
  }
}
