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
 * The node loading an instance's input is killed (SIGKILL) while it is far from the end (its steps
 * held, it stops loading some blocks ahead of the nodes), with a second node running the instance:
 * once its lease lapses the second node takes the loading over from the stored input position, and
 * completes the instance with every record loaded once (the loaded count is the input's) and
 * through each step once, the aggregator's sink given each record once (the killed node, held at
 * its first step, handed no group over). About 40 s.
 */
@Tag("cluster") // starts two Sluice processes on PostgreSQL and kills one
class AnotherNodeTakesTheLoadingOverTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final long RECORDS = 300_000;
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
  void theSecondNodeLoadsTheRestFromTheStoredPositionAndNoRecordTwice() throws Exception {
    Path config = nodes.config("numbers.yaml", RECORDS, BLOCK, "double");
    try {
      SluiceProcess loader = nodes.startHoldingBlocks("n1", config);
      SluiceProcess second = nodes.startHoldingBlocks("n2", config);
      assertThat(loader.log()).contains("node " + nodes.nodeId(loader) + "#1 loads its input");
      BatchNodes.Instance before = nodes.instance();
      assertThat(before.inputDone()).as("input read at the kill: %s", before).isFalse();

      loader.close(); // SIGKILL

      await()
          .atMost(Duration.ofSeconds(30))
          .failFast("node n2 ended", () -> !second.isAlive())
          .until(() -> second.log().contains("loads its input from position"));
      String takeover =
          second
              .log()
              .lines()
              .filter(l -> l.contains("loads its input from position"))
              .findFirst()
              .orElseThrow();
      long from = Long.parseLong(takeover.substring(takeover.lastIndexOf(' ') + 1).strip());
      System.out.printf(
          "n1 killed having loaded %,d records; n2 took the loading over from position %,d%n",
          before.loaded(), from);
      assertThat(from).isPositive().isLessThan(RECORDS);
      nodes.release();

      assertThat(second.awaitExit(120)).as("exit code of the second node").isZero();
      BatchNodes.Instance instance = nodes.instance();
      assertThat(instance.state()).as("instance %s", instance).isEqualTo("COMPLETED");
      assertThat(instance.loaded()).as("records loaded").isEqualTo(RECORDS);
      assertThat(instance.processed()).isEqualTo(RECORDS);
      assertThat(instance.successful()).isEqualTo(RECORDS);
      assertThat(nodes.stepsProcessed()).isEqualTo(Map.of(0, RECORDS, 1, RECORDS));

      long[] seen = new long[(int) RECORDS + 1];
      for (BatchNodes.Group group : nodes.groups()) {
        group.positions().forEach(p -> seen[p.intValue()]++);
      }
      List<Integer> notOnce = new ArrayList<>();
      for (int position = 1; position <= RECORDS; position++) {
        if (seen[position] != 1 && notOnce.size() < 20) {
          notOnce.add(position);
        }
      }
      assertThat(notOnce).as("positions not in exactly one group (the first 20)").isEmpty();
    } catch (AssertionError | RuntimeException e) {
      nodes.addLogs(e);
      throw e;
    }
  }
}
