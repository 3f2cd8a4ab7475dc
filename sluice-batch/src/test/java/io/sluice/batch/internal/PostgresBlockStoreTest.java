package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.BatchRecord;
import io.sluice.batch.StepCounts;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.LeaseHolder;
import io.sluice.jobs.spi.NodeLease;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresBlockStoreTest extends BlockStoreContract {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @Override
  Storage newStorage() throws Exception {
    DB.dropTables();
    return reopen();
  }

  @Override
  Storage reopen() {
    return new PostgresStorageFactory()
        .open(DB.config(), VALUES, new SimpleMeterRegistry(), Clock.systemUTC());
  }

  /**
   * A block through its last step on a node that does not write the output keeps its lines in its
   * row; no node claims it again. The writer reads the lines of the blocks before the first one
   * still at a step, in block order (a few at a time when they are big), and only under its writer
   * lease takes them out with the file's new end: a writer whose lease lapsed changes nothing.
   */
  @Test
  void linesWaitInBlockOrderForTheWriterAndOnlyItsLeaseTakesThemOut() throws Exception {
    try (Storage storage = reopen();
        LeaseHolder a = lease(storage, "node-a");
        LeaseHolder b = lease(storage, "node-b")) {
      BlockStore store = new BlockStore(JdbcAccess.of(storage), VALUES);
      long instance = store.create("out", "v1");
      for (long block = 0; block < 4; block++) {
        store.load(instance, block * 10, records(block * 10 + 1, 2), block * 10 + 11, 0);
      }
      List<BlockStore.Block> claimed = store.claim(instance, a.lease(), 8);
      assertThat(claimed).hasSize(4);
      // Blocks 0, 20 and 30 through; block 10 still at its step.
      for (long block : List.of(0L, 20L, 30L)) {
        assertThat(store.throughToOutput(instance, written(block), line(block), a.lease()))
            .isTrue();
      }
      assertThat(store.throughToOutput(instance, written(0), line(0), a.lease()))
          .as("through already")
          .isFalse();
      assertThat(store.claim(instance, b.lease(), 8))
          .as("rows with lines are not claimed")
          .isEmpty();
      assertThat(store.find(instance).orElseThrow().processed()).isEqualTo(6);

      assertThat(store.linesAhead(instance, 128, 1 << 20))
          .extracting(BlockStore.Lines::number)
          .as("only what comes before block 10")
          .containsExactly(0L);
      assertThat(store.throughToOutput(instance, written(10), line(10), a.lease())).isTrue();
      List<BlockStore.Lines> ahead = store.linesAhead(instance, 128, 1 << 20);
      assertThat(ahead).extracting(BlockStore.Lines::number).containsExactly(0L, 10L, 20L, 30L);
      assertThat(new String(ahead.get(1).lines(), StandardCharsets.UTF_8)).isEqualTo("line 10\n");
      assertThat(store.linesAhead(instance, 128, 1))
          .extracting(BlockStore.Lines::number)
          .as("a byte bound still gives the first block")
          .containsExactly(0L);
      assertThat(store.linesAhead(instance, 128, 9))
          .extracting(BlockStore.Lines::number)
          .as("the blocks whose lines begin within the bound (8 bytes each)")
          .containsExactly(0L, 10L);
      assertThat(store.linesAhead(instance, 2, 1 << 20)).hasSize(2);

      assertThat(store.takeWriting(instance, a.lease())).isTrue();
      assertThat(store.takeWriting(instance, b.lease())).as("node-a writes it").isFalse();
      assertThatThrownBy(() -> store.writtenLines(instance, 0, 30, 4, 100, b.lease()))
          .isInstanceOf(RoleLostException.class)
          .hasMessageContaining("no longer writes the output of batch instance " + instance);
      assertThat(store.linesAhead(instance, 128, 1 << 20)).as("nothing changed").hasSize(4);

      store.writtenLines(instance, 0, 10, 2, 100, a.lease());
      assertThat(store.outputBytes(instance)).isEqualTo(100);
      assertThat(store.linesAhead(instance, 128, 1 << 20))
          .extracting(BlockStore.Lines::number)
          .containsExactly(20L, 30L);

      // node-a's lease lapses: node-b takes the writing over, node-a's commit is refused.
      NodeLease lapsed = a.lease();
      DB.execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = 'node-a'");
      assertThat(store.takeWriting(instance, b.lease())).isTrue();
      assertThatThrownBy(() -> store.writtenLines(instance, 20, 30, 2, 200, lapsed))
          .isInstanceOf(RoleLostException.class);
      store.writtenLines(instance, 20, 30, 2, 200, b.lease());
      assertThat(store.outputBytes(instance)).isEqualTo(200);
      assertThat(store.shared(instance).blocks()).isZero();
    }
  }

  /**
   * A node whose claim or load lost its answer lets go of the blocks the store holds for it that it
   * does not have in memory: another node claims them at once.
   */
  @Test
  void aNodeLetsGoOfTheBlocksItHoldsButDoesNotHave() throws Exception {
    try (Storage storage = reopen();
        LeaseHolder a = lease(storage, "node-a");
        LeaseHolder b = lease(storage, "node-b")) {
      BlockStore store = new BlockStore(JdbcAccess.of(storage), VALUES);
      long instance = store.create("lost", "v1");
      for (long block = 0; block < 4; block++) {
        store.load(instance, block * 10, records(block * 10 + 1, 2), block * 10 + 11, 0);
      }
      assertThat(store.claim(instance, a.lease(), 8)).hasSize(4);
      assertThat(store.releaseAllBut(instance, a.lease(), List.of(0L, 20L))).isEqualTo(2);
      assertThat(store.claim(instance, b.lease(), 8))
          .extracting(BlockStore.Block::number)
          .containsExactly(10L, 30L);
      assertThat(store.releaseAllBut(instance, a.lease(), List.of())).isEqualTo(2);
      assertThat(store.releaseAllBut(instance, b.lease(), List.of(10L, 30L))).isZero();
    }
  }

  private static LeaseHolder lease(Storage storage, String node) {
    return LeaseHolder.start(
        JobStores.open(storage, VALUES), node, Duration.ofSeconds(30), Duration.ofSeconds(10));
  }

  private static List<BatchRecord> records(long from, int count) {
    return LongStream.range(from, from + count)
        .mapToObj(i -> BatchRecord.of(i, "record " + i))
        .toList();
  }

  /** Block {@code number} through its only step, its two records successful. */
  private static BlockStore.Written written(long number) {
    return new BlockStore.Written(number, 0, 2, 2, new StepCounts(2, 0, 0), List.of());
  }

  private static byte[] line(long number) {
    return ("line " + number + "\n").getBytes(StandardCharsets.UTF_8);
  }
}
