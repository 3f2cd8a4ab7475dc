package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code sluice batch run} processes share an instance of a million records; once each has
 * taken blocks through, one is killed (SIGKILL) and another frozen (SIGSTOP) until its lease lapsed
 * on the database's clock and the others took its blocks over, then woken (SIGCONT). The survivor
 * completes the instance with the counts of a one-node run (no step committed twice); the frozen
 * node commits nothing after it wakes and ends with an error naming its lost lease; the
 * aggregator's sink has every record, and a record twice only when the killed or the frozen node
 * handed it over (its block was not through when that node stopped): at least once, within what
 * those two nodes held. About 60 s on a 2-core machine.
 */
@Tag("cluster") // starts three Sluice processes on PostgreSQL, kills one, freezes one
class ABatchInstanceOutlivesAKilledAndAFrozenNodeTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final long RECORDS = 1_000_000;
  private static final int BLOCK = 1_000;

  @TempDir Path work;

  private BatchNodes nodes;

  @BeforeEach
  void createTheSink() throws Exception {
    nodes = new BatchNodes(work, DB);
  }

  @AfterEach
  void stopTheNodes() {
    nodes.close();
  }

  @Test
  void theSurvivorCompletesTheInstanceAndTheFrozenNodeCommitsNothingAfterItWakes()
      throws Exception {
    Path config = nodes.config("numbers.yaml", RECORDS, BLOCK, "double");
    try {
      SluiceProcess first = nodes.startHoldingBlocks("n1", config);
      SluiceProcess killed = nodes.startHoldingBlocks("n2", config);
      SluiceProcess frozen = nodes.startHoldingBlocks("n3", config);
      String frozenId = nodes.nodeId(frozen);
      nodes.release();
      await()
          .atMost(Duration.ofSeconds(60))
          .failFast("a node ended", () -> !first.isAlive() || !killed.isAlive())
          .until(
              () -> {
                Map<String, Long> blocks = nodes.blocksByNode();
                return blocks.size() == 3 && blocks.values().stream().allMatch(b -> b >= 5);
              });

      killed.close(); // SIGKILL
      BatchNodes.signal(frozen, "STOP");
      long frozenAt = nodes.number("SELECT " + BatchNodes.NOW);
      long heldAtTheFreeze =
          nodes.number("SELECT COUNT(*) FROM sluice_batch_block WHERE owner = ?", frozenId);
      long thawedAt;
      try {
        // Its lease lapses on the database's clock, and the others take its blocks over.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    nodes.number(
                                "SELECT COUNT(*) FROM sluice_job_node WHERE node = ? AND"
                                    + " lease_expires < "
                                    + BatchNodes.NOW,
                                frozenId)
                            == 1
                        && nodes.number(
                                "SELECT COUNT(*) FROM sluice_batch_block WHERE owner = ?", frozenId)
                            == 0);
      } finally {
        BatchNodes.signal(frozen, "CONT");
        thawedAt = nodes.number("SELECT " + BatchNodes.NOW);
      }

      assertThat(first.awaitExit(180)).as("exit code of the survivor").isZero();
      int frozenExit = frozen.awaitExit(60);
      System.out.printf(
          "n3 frozen %d ms holding %d block(s), exited with %d%n",
          thawedAt - frozenAt, heldAtTheFreeze, frozenExit);
      // Woken past its lease, the frozen node commits nothing it held under it (its moves are
      // fenced: the step counts below stay exact) and rejoins under a new lease.
      assertThat(frozenExit).as("exit code of the frozen node").isZero();
      assertThat(frozen.log())
          .contains("lost its lease")
          .contains("rejoins the instance")
          .contains("Batch job numbers, instance 1: COMPLETED");

      BatchNodes.Instance instance = nodes.instance();
      assertThat(instance.state()).as("instance %s", instance).isEqualTo("COMPLETED");
      assertThat(instance.loaded()).isEqualTo(RECORDS);
      assertThat(instance.processed()).isEqualTo(RECORDS);
      assertThat(instance.successful()).isEqualTo(RECORDS);
      assertThat(nodes.stepsProcessed())
          .as("records each step committed")
          .isEqualTo(Map.of(0, RECORDS, 1, RECORDS));
      Map<String, Long> processed = nodes.processedByNode();
      System.out.println("records processed by node: " + processed);
      assertThat(processed.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);

      List<BatchNodes.Group> groups = nodes.groups();
      List<List<String>> handedBy = new ArrayList<>();
      for (int i = 0; i <= RECORDS; i++) {
        handedBy.add(null);
      }
      for (BatchNodes.Group group : groups) {
        for (long position : group.positions()) {
          List<String> by = handedBy.get((int) position);
          if (by == null) {
            by = new ArrayList<>(1);
            handedBy.set((int) position, by);
          }
          by.add(group.node());
        }
      }
      List<Integer> missing = new ArrayList<>();
      List<Integer> twiceUnexcused = new ArrayList<>();
      long twice = 0;
      for (int position = 1; position <= RECORDS; position++) {
        List<String> by = handedBy.get(position);
        if (by == null) {
          missing.add(position);
        } else if (by.size() > 1) {
          twice += by.size() - 1;
          if (!by.contains("n2") && !by.contains("n3")) {
            twiceUnexcused.add(position);
          }
        }
      }
      System.out.printf("records the sink got more than once: %d%n", twice);
      assertThat(missing).as("positions in no group").isEmpty();
      assertThat(twiceUnexcused)
          .as("positions handed over twice, neither time by the killed or the frozen node")
          .isEmpty();
      assertThat(twice)
          .as("records handed over again (what the killed and the frozen node held)")
          .isLessThanOrEqualTo(3L * 64 * BLOCK);
      System.out.printf(
          "groups the frozen node's sink recorded after it woke: %d%n",
          nodes.number("SELECT COUNT(*) FROM batch_group WHERE node = 'n3' AND at > ?", thawedAt));
    } catch (AssertionError | RuntimeException e) {
      nodes.addLogs(e);
      throw e;
    }
  }
}
