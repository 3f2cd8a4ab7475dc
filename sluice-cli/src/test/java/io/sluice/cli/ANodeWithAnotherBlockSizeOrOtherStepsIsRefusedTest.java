package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code sluice batch run} of the job with another block size, or with a step renamed, while
 * another node runs an instance of it on the same PostgreSQL store, is refused (exit 1, {@link
 * ExitCodes#FAILED}: a {@code BatchStartRefusedException}) with a message naming what differs; it
 * leaves no trace in the instance, which the first node then completes alone. About 25 s.
 */
@Tag("cluster") // starts Sluice processes on PostgreSQL
class ANodeWithAnotherBlockSizeOrOtherStepsIsRefusedTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final long RECORDS = 20_000;

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
  void aNodeJoiningWithAnotherDefinitionIsRefusedNamingWhatDiffers() throws Exception {
    try {
      SluiceProcess first =
          nodes.startHoldingBlocks("n1", nodes.config("numbers.yaml", RECORDS, 100, "double"));
      SluiceProcess smaller =
          nodes.start("n2", nodes.config("smaller-blocks.yaml", RECORDS, 50, "double"));
      SluiceProcess renamed =
          nodes.start("n3", nodes.config("renamed-step.yaml", RECORDS, 100, "triple"));

      assertThat(smaller.awaitExit(60)).as("exit code").isEqualTo(ExitCodes.FAILED);
      assertThat(smaller.log())
          .contains("Batch job 'numbers' cannot join instance 1, which is run by other nodes")
          .contains("the block size is 50 here, 100 in the instance")
          .doesNotContain("\tat ");
      assertThat(renamed.awaitExit(60)).as("exit code").isEqualTo(ExitCodes.FAILED);
      assertThat(renamed.log())
          .contains("Batch job 'numbers' cannot join instance 1, which is run by other nodes")
          .contains("step 1 is 'triple'")
          .contains("'double'")
          .doesNotContain("the block size")
          .doesNotContain("\tat ");
      assertThat(first.isAlive()).isTrue();

      nodes.release();
      assertThat(first.awaitExit(120)).as("exit code of the first node").isZero();
      BatchNodes.Instance instance = nodes.instance();
      assertThat(instance.state()).as("instance %s", instance).isEqualTo("COMPLETED");
      assertThat(instance.processed()).isEqualTo(RECORDS);
      assertThat(nodes.stepsProcessed()).isEqualTo(Map.of(0, RECORDS, 1, RECORDS));
      assertThat(nodes.processedByNode())
          .as("nodes that took blocks through")
          .containsOnlyKeys(nodes.nodeId(first));
      await().atMost(Duration.ofSeconds(1)).until(() -> !first.isAlive());
    } catch (AssertionError | RuntimeException e) {
      nodes.addLogs(e);
      throw e;
    }
  }
}
