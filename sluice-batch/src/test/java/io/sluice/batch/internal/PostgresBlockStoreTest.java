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
   * row; no node claims it again. The writer sees the blocks left in block order, which of them
   * have their lines stored (and how long), reads those lines, and only under its writer lease
   * takes them out, with its own blocks (their counts committed then) and the file's new end: a
   * writer whose lease lapsed changes nothing.
   */
  @Test
  void linesWaitForTheWriterAndOnlyItsLeaseTakesThemOut() throws Exception {
    try (Storage storage = reopen();
        LeaseHolder a = lease(storage, "node-a");
        LeaseHolder b = lease(storage, "node-b")) {
      BlockStore store = new BlockStore(JdbcAccess.of(storage), VALUES);
      long instance = fourBlocks(store, "out");
      assertThat(store.claim(instance, b.lease(), 2)).hasSize(2); // blocks 0 and 10
      assertThat(store.claim(instance, a.lease(), 2)).hasSize(2); // blocks 20 and 30
      assertThat(store.throughToOutput(instance, written(0), line(0), b.lease())).isTrue();
      assertThat(store.throughToOutput(instance, written(0), line(0), b.lease()))
          .as("through already")
          .isFalse();
      assertThat(store.throughToOutput(instance, written(20), line(20), b.lease()))
          .as("not node-b's")
          .isFalse();
      assertThat(store.find(instance).orElseThrow().processed()).isEqualTo(2);
      store.release(instance, b.lease());
      assertThat(store.claim(instance, b.lease(), 8))
          .extracting(BlockStore.Block::number)
          .as("a row with lines is not claimed again")
          .containsExactly(10L);

      assertThat(store.ahead(instance, 8))
          .containsExactly(
              new BlockStore.Ahead(0, 7),
              new BlockStore.Ahead(10, -1),
              new BlockStore.Ahead(20, -1),
              new BlockStore.Ahead(30, -1));
      assertThat(store.lines(instance, List.of(0L, 10L))).containsOnlyKeys(0L);
      assertThat(new String(store.lines(instance, List.of(0L)).get(0L), StandardCharsets.UTF_8))
          .isEqualTo("line 0\n");

      assertThat(store.takeWriting(instance, a.lease())).isTrue();
      assertThat(store.takeWriting(instance, b.lease())).as("node-a writes it").isFalse();
      assertThatThrownBy(() -> store.writtenLines(instance, List.of(0L), List.of(), 100, b.lease()))
          .isInstanceOf(RoleLostException.class)
          .hasMessageContaining("no longer writes the output of batch instance " + instance);
      assertThatThrownBy(
              () -> store.writtenLines(instance, List.of(0L), List.of(written(10)), 100, a.lease()))
          .as("block 10 is node-b's")
          .isInstanceOf(RoleLostException.class);
      assertThat(store.ahead(instance, 8)).as("nothing changed").hasSize(4);

      store.writtenLines(instance, List.of(0L), List.of(written(20)), 100, a.lease());
      assertThat(store.outputBytes(instance)).isEqualTo(100);
      assertThat(store.ahead(instance, 8))
          .extracting(BlockStore.Ahead::number)
          .containsExactly(10L, 30L);
      assertThat(store.find(instance).orElseThrow().processed()).as("block 20's, now").isEqualTo(4);

      // node-a's lease lapses: node-b takes the writing over, node-a's commit is refused.
      assertThat(store.throughToOutput(instance, written(10), line(10), b.lease())).isTrue();
      NodeLease lapsed = a.lease();
      DB.execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = 'node-a'");
      assertThat(store.takeWriting(instance, b.lease())).isTrue();
      assertThatThrownBy(() -> store.writtenLines(instance, List.of(10L), List.of(), 200, lapsed))
          .isInstanceOf(RoleLostException.class);
      store.writtenLines(instance, List.of(10L), List.of(), 200, b.lease());
      assertThat(store.outputBytes(instance)).isEqualTo(200);
      assertThat(store.ahead(instance, 8))
          .extracting(BlockStore.Ahead::number)
          .containsExactly(30L);
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
      long instance = fourBlocks(store, "lost");
      assertThat(store.claim(instance, a.lease(), 8)).hasSize(4);
      assertThat(store.releaseAllBut(instance, a.lease(), List.of(0L, 20L))).isEqualTo(2);
      assertThat(store.claim(instance, b.lease(), 8))
          .extracting(BlockStore.Block::number)
          .containsExactly(10L, 30L);
      assertThat(store.releaseAllBut(instance, a.lease(), List.of())).isEqualTo(2);
      assertThat(store.releaseAllBut(instance, b.lease(), List.of(10L, 30L))).isZero();
    }
  }

  /** A new instance of {@code job} with blocks 0, 10, 20 and 30 loaded, two records each. */
  private static long fourBlocks(BlockStore store, String job) {
    long instance = store.create(job, "v1");
    for (long block = 0; block < 4; block++) {
      store.load(instance, block * 10, records(block * 10 + 1, 2), block * 10 + 11, 0);
    }
    return instance;
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
