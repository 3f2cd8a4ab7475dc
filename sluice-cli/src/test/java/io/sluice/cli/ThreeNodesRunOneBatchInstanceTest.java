package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code sluice batch run} processes on one PostgreSQL store run one instance of a batch job
 * over a million records together, and the counts are those of a run on one node: every record
 * loaded, processed and successful once, each step's count the records (no block committed twice at
 * a step), every node a real share of the blocks, and the aggregator's sink given every record
 * exactly once, in full groups but for at most one partial group per node (each node hands its own
 * last one). The second and third node join the instance the first one started; the nodes' steps
 * are held ({@link HeldWhileGateExists}) until all three have joined, so that a node's start-up
 * (some seconds on two cores) does not leave it no work. About 40 s on a 2-core machine.
 */
@Tag("cluster") // starts three Sluice processes on PostgreSQL: not in the fast suite
class ThreeNodesRunOneBatchInstanceTest {

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
  void threeNodesTogetherCountAsOneNodeAndEachDoesItsShare() throws Exception {
    Path config = nodes.config("numbers.yaml", RECORDS, BLOCK, "double");
    try {
      SluiceProcess first = nodes.startHoldingBlocks("n1", config);
      SluiceProcess second = nodes.startHoldingBlocks("n2", config);
      SluiceProcess third = nodes.startHoldingBlocks("n3", config);
      assertThat(BatchNodes.joined(second) && BatchNodes.joined(third)).isTrue();
      long started = System.nanoTime();
      nodes.release();

      List<SluiceProcess> all = List.of(first, second, third);
      for (SluiceProcess node : all) {
        assertThat(node.awaitExit(180)).as("exit code of node pid %d", node.pid()).isZero();
      }
      System.out.printf(
          "three nodes ran %,d records in %d ms after they all joined%n",
          RECORDS, Duration.ofNanos(System.nanoTime() - started).toMillis());

      BatchNodes.Instance instance = nodes.instance();
      assertThat(instance.state()).as("instance %s", instance).isEqualTo("COMPLETED");
      assertThat(instance.loaded()).isEqualTo(RECORDS);
      assertThat(instance.processed()).isEqualTo(RECORDS);
      assertThat(instance.successful()).isEqualTo(RECORDS);
      assertThat(instance.failed()).isZero();
      assertThat(nodes.stepsProcessed())
          .as("records each step committed")
          .isEqualTo(Map.of(0, RECORDS, 1, RECORDS));
      for (SluiceProcess node : all) {
        assertThat(node.log()).contains("Batch job numbers, instance 1: COMPLETED");
      }

      Map<String, Long> processed = nodes.processedByNode();
      System.out.println("records processed by node: " + processed);
      assertThat(processed).hasSize(3);
      for (SluiceProcess node : all) {
        assertThat(processed.get(nodes.nodeId(node)))
            .as("records node pid %d processed, of %s", node.pid(), processed)
            .isGreaterThan(RECORDS / 20);
      }
      assertThat(processed.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(RECORDS);

      List<BatchNodes.Group> groups = nodes.groups();
      long[] seen = new long[(int) RECORDS + 1];
      Map<String, Integer> partial = new HashMap<>();
      for (BatchNodes.Group group : groups) {
        group.positions().forEach(p -> seen[p.intValue()]++);
        if (group.positions().size() < BatchNodes.GROUP) {
          partial.merge(group.node(), 1, Integer::sum);
        }
      }
      System.out.printf(
          "the sink got %d groups; partial ones by node: %s%n", groups.size(), partial);
      List<Integer> notOnce = new ArrayList<>();
      for (int position = 1; position <= RECORDS; position++) {
        if (seen[position] != 1 && notOnce.size() < 20) {
          notOnce.add(position);
        }
      }
      assertThat(notOnce).as("positions not in exactly one group (the first 20)").isEmpty();
      assertThat(partial.values()).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(1));
    } catch (AssertionError | RuntimeException e) {
      nodes.addLogs(e);
      throw e;
    }
  }
}
