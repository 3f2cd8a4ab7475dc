package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.batch.BatchFailure;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.BatchState;
import io.sluice.batch.StepCounts;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.JdbcAccess;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the block store keeps, on each database: blocks loaded once with the input position after
 * them, moved once per step with the step's counts, gone after the last step; all of it there again
 * after the storage is reopened.
 */
abstract class BlockStoreContract {

  static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  private Storage storage;
  private BlockStore blocks;

  /** A new, empty storage. */
  abstract Storage newStorage() throws Exception;

  /** The same storage opened again, as after a restart. */
  abstract Storage reopen() throws Exception;

  @BeforeEach
  void open() throws Exception {
    storage = newStorage();
    blocks = new BlockStore(JdbcAccess.of(storage), VALUES);
  }

  @AfterEach
  void close() {
    storage.close();
  }

  private static List<BatchRecord> records(long from, int count) {
    return LongStream.range(from, from + count)
        .mapToObj(i -> BatchRecord.of(i, "record " + i))
        .toList();
  }

  @Test
  void aBlockIsLoadedOnceWithTheInputPositionAfterIt() {
    long instance = blocks.create("import", "v1");
    List<BatchRecord> first =
        List.of(BatchRecord.of(1, "a"), BatchRecord.of(2, "?").failedAt("input", "bad line 2"));

    assertThat(blocks.load(instance, 0, first, 3, 1)).isTrue();
    assertThat(blocks.load(instance, 0, first, 3, 1)).as("loaded before a crash").isFalse();
    assertThat(blocks.load(instance, 1, records(3, 2), 5, 0)).isTrue();

    InstanceTable.Instance stored = blocks.find(instance).orElseThrow();
    assertThat(stored.job()).isEqualTo("import");
    assertThat(stored.state()).isEqualTo(BatchState.LOADING);
    assertThat(stored.inputPosition()).isEqualTo(5);
    assertThat(stored.loaded()).isEqualTo(4);
    assertThat(stored.failed()).isEqualTo(1);
    assertThat(stored.inputDone()).isFalse();
    assertThat(blocks.pending(instance, -1, 10))
        .extracting(BlockStore.Block::number, BlockStore.Block::step)
        .containsExactly(tuple(0L, 0), tuple(1L, 0));
    assertThat(blocks.pending(instance, -1, 10).getFirst().records()).isEqualTo(first);
    assertThat(blocks.pending(instance, 0, 10)).hasSize(1);
  }

  @Test
  void aBlockMovesOncePerStepWithItsCountsAndLeavesAfterTheLast() {
    long instance = blocks.create("import", "v1");
    blocks.load(instance, 7, records(1, 3), 4, 0);
    List<BatchRecord> after =
        List.of(
            BatchRecord.of(1, "A"),
            BatchRecord.of(2, "record 2").failedAt("upper", "boom"),
            BatchRecord.of(3, "C"));

    List<BatchRecord> failed = List.of(after.get(1));
    assertThat(blocks.advance(instance, 7, 0, false, after, new StepCounts(3, 1, 0), failed))
        .isTrue();
    assertThat(blocks.advance(instance, 7, 0, false, after, new StepCounts(3, 1, 0), failed))
        .as("moved from step 0 already")
        .isFalse();
    assertThat(blocks.pending(instance, -1, 10).getFirst())
        .isEqualTo(new BlockStore.Block(instance, 7, 1, after));

    assertThat(blocks.advance(instance, 7, 1, true, after, new StepCounts(2, 0, 1), List.of()))
        .isTrue();
    assertThat(blocks.advance(instance, 7, 1, true, after, new StepCounts(2, 0, 1), List.of()))
        .isFalse();

    assertThat(blocks.pending(instance, -1, 10)).isEmpty();
    assertThat(blocks.steps(instance))
        .isEqualTo(Map.of(0, new StepCounts(3, 1, 0), 1, new StepCounts(2, 0, 1)));
    InstanceTable.Instance stored = blocks.find(instance).orElseThrow();
    assertThat(stored.failed()).isEqualTo(1);
    assertThat(stored.processed()).as("through every step").isEqualTo(3);
    assertThat(stored.successful()).isEqualTo(2);
  }

  @Test
  void aBlockWhoseRecordsCannotBeReadIsListedWithWhyAndDroppedWithItsRecordsFailed() {
    long instance = blocks.create("import", "v1");
    blocks.load(instance, 0, records(1, 3), 4, 0);
    blocks.load(instance, 1, records(4, 2), 6, 0);
    JdbcAccess.of(storage)
        .write(
            "spoil block 0",
            tx -> {
              var update =
                  tx.prepare(
                      "UPDATE sluice_batch_block SET records = substr(records, 1, 10)"
                          + " WHERE block_no = 0");
              return update.executeUpdate();
            });

    List<BlockStore.Block> pending = blocks.pending(instance, -1, 10);

    assertThat(pending).extracting(BlockStore.Block::number).containsExactly(0L, 1L);
    BlockStore.Block spoiled = pending.getFirst();
    assertThat(spoiled.records()).isEmpty();
    assertThat(spoiled.unreadable().records()).isEqualTo(3);
    assertThat(spoiled.unreadable().reason()).startsWith("truncated: A record of 10 bytes");
    assertThat(pending.get(1).unreadable()).isNull();
    assertThat(pending.get(1).records()).isEqualTo(records(4, 2));

    BatchRecord why = new BatchRecord(0, null, "upper", "block 0 of 3 record(s) cannot be read");
    assertThat(blocks.dropUnreadable(instance, 0, 0, 3, why)).isTrue();
    assertThat(blocks.dropUnreadable(instance, 0, 0, 3, why)).as("gone already").isFalse();
    assertThat(blocks.pending(instance, -1, 10))
        .extracting(BlockStore.Block::number)
        .containsExactly(1L);
    assertThat(blocks.steps(instance)).isEqualTo(Map.of(0, new StepCounts(3, 3, 0)));
    InstanceTable.Instance stored = blocks.find(instance).orElseThrow();
    assertThat(stored.failed()).isEqualTo(3);
    assertThat(stored.processed()).isEqualTo(3);
    assertThat(stored.successful()).isZero();
  }

  @Test
  void everythingIsThereAgainAfterAReopen() throws Exception {
    long instance = blocks.create("import", "v1");
    blocks.load(instance, 0, records(1, 2), 3, 0);
    blocks.load(instance, 1, records(3, 2), 5, 0);
    blocks.advance(instance, 0, 0, false, records(1, 2), new StepCounts(2, 0, 0), List.of());
    blocks.inputDone(instance);
    storage.close();

    storage = reopen();
    blocks = new BlockStore(JdbcAccess.of(storage), VALUES);

    InstanceTable.Instance stored = blocks.find(instance).orElseThrow();
    assertThat(stored.state()).isEqualTo(BatchState.RUNNING);
    assertThat(stored.inputDone()).isTrue();
    assertThat(stored.inputPosition()).isEqualTo(5);
    assertThat(blocks.pending(instance, -1, 10))
        .extracting(BlockStore.Block::step)
        .containsExactly(1, 0);
    assertThat(blocks.steps(instance)).containsEntry(0, new StepCounts(2, 0, 0));
  }

  @Test
  void anInstanceKeepsItsParametersAcrossAReopenAndOneWithoutHasNone() throws Exception {
    long with =
        blocks.create(
            "import",
            "v1",
            "2026-11-27",
            Map.of("day", "2026-11-27", "limit", 10L, "ids", List.of(1, 2)));
    long without = blocks.create("import", "v1");
    storage.close();

    storage = reopen();
    blocks = new BlockStore(JdbcAccess.of(storage), VALUES);

    assertThat(blocks.parameters(with))
        .isEqualTo(Map.of("day", "2026-11-27", "limit", 10L, "ids", List.of(1, 2)));
    assertThat(blocks.parameters(without)).isEmpty();
    assertThat(blocks.parameters(999_999)).isEmpty();
  }

  @Test
  void instancesAreListedNewestFirstWithTheirStateAndResult() {
    long first = blocks.create("import", "v1");
    long other = blocks.create("export", "v1");
    long second = blocks.create("import", "v2");
    blocks.state(first, BatchState.COMPLETED, "{\"records\": 3}");
    blocks.state(first, BatchState.COMPLETED, null);

    assertThat(blocks.list(null, 10))
        .extracting(InstanceTable.Instance::id)
        .containsExactly(second, other, first);
    assertThat(blocks.list("import", 1))
        .extracting(InstanceTable.Instance::id)
        .containsExactly(second);
    InstanceTable.Instance done = blocks.find(first).orElseThrow();
    assertThat(done.state()).isEqualTo(BatchState.COMPLETED);
    assertThat(done.result()).as("kept when not given").isEqualTo("{\"records\": 3}");
    assertThat(blocks.find(12345)).isEmpty();
  }

  @Test
  void aStopIsAskedOfALoadingOrRunningInstanceOnlyAndForgottenWhenARunEndsOrBegins() {
    long running = blocks.create("import", "v1");
    long ended = blocks.create("import", "v1");
    blocks.state(ended, BatchState.COMPLETED, "done");

    assertThat(blocks.stopRequested(running)).isFalse();
    assertThat(blocks.requestStop(running)).isTrue();
    assertThat(blocks.requestStop(ended)).as("it ended").isFalse();
    assertThat(blocks.requestStop(12345)).as("no such instance").isFalse();
    assertThat(blocks.stopRequested(running)).isTrue();
    assertThat(blocks.find(running).orElseThrow().stopRequested()).isTrue();
    assertThat(blocks.stopRequested(ended)).isFalse();

    blocks.state(running, BatchState.STOPPED, "stopped");
    assertThat(blocks.stopRequested(running)).as("answered").isFalse();
    assertThat(blocks.requestStop(running)).as("stopped already").isFalse();

    blocks.resumed(running, 1000);
    assertThat(blocks.find(running).orElseThrow().state()).isEqualTo(BatchState.LOADING);
    assertThat(blocks.requestStop(running)).isTrue();
    blocks.inputDone(running);
    blocks.resumed(running, 1000);
    assertThat(blocks.stopRequested(running))
        .as("a request no run answered is forgotten when the next begins")
        .isFalse();
    assertThat(blocks.find(running).orElseThrow().state()).isEqualTo(BatchState.RUNNING);
  }

  @Test
  void ofTwoResumesOfOneReadOnlyTheFirstTakesTheInstance() {
    long instance = blocks.create("import", "v1");
    blocks.state(instance, BatchState.STOPPED, "stopped");
    InstanceTable.Instance read = blocks.find(instance).orElseThrow();

    assertThat(blocks.takeForResume(instance, read.state(), read.updatedAt())).isTrue();
    assertThat(blocks.takeForResume(instance, read.state(), read.updatedAt()))
        .as("the second read the instance as the first did: it changed since")
        .isFalse();
    InstanceTable.Instance now = blocks.find(instance).orElseThrow();
    assertThat(now.updatedAt()).isGreaterThan(read.updatedAt());
    assertThat(blocks.takeForResume(instance, BatchState.RUNNING, now.updatedAt()))
        .as("another state")
        .isFalse();
    assertThat(blocks.takeForResume(12345, read.state(), read.updatedAt())).isFalse();
  }

  @Test
  void eachCommitKeepsTheRecordsItCountsFailedOnceInInputOrder() {
    long instance = blocks.create("import", "v1");
    List<BatchRecord> loaded =
        List.of(BatchRecord.of(1, "a"), BatchRecord.of(2, "b;;").failedAt("input", "bad line 2"));
    blocks.load(instance, 0, loaded, 2, 1);
    blocks.load(instance, 0, loaded, 2, 1); // loaded before a crash: no second row
    BatchRecord upper = BatchRecord.of(1, "a").failedAt("upper", "IllegalStateException: no a");
    List<BatchRecord> after = List.of(upper, loaded.get(1));
    blocks.advance(instance, 0, 0, false, after, new StepCounts(1, 1, 1), List.of(upper));
    blocks.advance(instance, 0, 0, false, after, new StepCounts(1, 1, 1), List.of(upper));
    blocks.load(instance, 1, records(3, 2), 4, 0);
    BatchRecord unreadable = new BatchRecord(0, null, "upper", "block 1 cannot be read");
    blocks.dropUnreadable(instance, 1, 0, 2, unreadable);

    List<BatchFailure> kept = blocks.failures(instance, 0, 10);

    assertThat(kept)
        .extracting(
            BatchFailure::position, BatchFailure::step, BatchFailure::error, BatchFailure::payload)
        .containsExactly(
            tuple(0L, "upper", "block 1 cannot be read", null),
            tuple(1L, "upper", "IllegalStateException: no a", "a"),
            tuple(2L, "input", "bad line 2", "b;;"));
    assertThat(blocks.find(instance).orElseThrow().failed())
        .as("the unreadable block counts its 2 records with one row")
        .isEqualTo(4);
    assertThat(blocks.failures(instance, 2, 10))
        .extracting(BatchFailure::position)
        .containsExactly(2L);
    assertThat(blocks.failures(instance, 3, 10)).isEmpty();
    assertThat(blocks.failures(12345, 0, 10)).isEmpty();
  }

  @Test
  void beyondItsBoundAnInstanceCountsFailedRecordsWithoutKeepingThem() {
    long instance = blocks.create("import", "v1");
    blocks.resumed(instance, 3);
    List<BatchRecord> bad =
        LongStream.rangeClosed(1, 5)
            .mapToObj(i -> BatchRecord.of(i, "x".repeat(500)).failedAt("input", "bad " + i))
            .toList();
    blocks.load(instance, 0, bad, 5, 5);
    blocks.load(instance, 5, List.of(bad.getFirst().withPayload("y")), 6, 1);

    List<BatchFailure> kept = blocks.failures(instance, 0, 10);

    assertThat(kept).extracting(BatchFailure::position).containsExactly(1L, 2L, 3L);
    assertThat(kept.getFirst().payload())
        .as("a payload's text is cut")
        .hasSize(BatchFailure.PAYLOAD_CHARS)
        .endsWith("…");
    assertThat(blocks.find(instance).orElseThrow().failed()).isEqualTo(6);
    assertThat(blocks.failures(instance, 0, 2))
        .as("a page of 2")
        .extracting(BatchFailure::position)
        .containsExactly(1L, 2L);

    blocks.resumed(instance, 4); // a run with a higher bound keeps one more
    blocks.load(instance, 6, List.of(bad.get(4).withPayload("z")), 7, 1);
    assertThat(blocks.failures(instance, 4, 10))
        .extracting(BatchFailure::position)
        .containsExactly(5L);
  }

  @Test
  void rowsOfOnePositionComeInOnePage() {
    long instance = blocks.create("import", "v1");
    for (long block = 0; block < 3; block++) {
      blocks.load(instance, block, records(block + 1, 1), block + 1, 0);
      blocks.dropUnreadable(
          instance, block, 0, 1, new BatchRecord(0, null, "upper", "block " + block));
    }

    assertThat(blocks.failures(instance, 0, 2))
        .as("all three rows at 0, though 2 were asked for")
        .hasSize(3);
    assertThat(blocks.failures(instance, 1, 2)).isEmpty();
  }
}
