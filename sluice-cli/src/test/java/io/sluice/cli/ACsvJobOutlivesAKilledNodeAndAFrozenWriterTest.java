package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.testkit.PostgresTestDatabase;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * Three {@code sluice batch run} processes share an instance of a job with a CSV output: every node
 * takes blocks through, one node writes the file. Once each has taken blocks through, the writing
 * node is frozen (SIGSTOP) until its lease lapsed on the database's clock, and another node is
 * killed (SIGKILL). The survivor takes the writing over once the frozen process, woken (SIGCONT),
 * lets go of the file (it holds the file's lock while frozen, so nothing is written beside it), and
 * completes the instance: the file holds every record's line once, in input order, and as many
 * bytes as the commits count. About 30 s on a 2-core machine.
 */
@Tag("cluster") // starts three Sluice processes on PostgreSQL, kills one, freezes one
class ACsvJobOutlivesAKilledNodeAndAFrozenWriterTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final long RECORDS = 300_000;
  private static final int BLOCK = 500;

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
  void theFileHoldsEachLineOnceInOrderAfterTheWriterFroze() throws Exception {
    Path out = work.resolve("out/numbers.csv");
    Path config = nodes.csvConfig("numbers.yaml", RECORDS, BLOCK, out);
    try {
      List<SluiceProcess> all = new ArrayList<>();
      all.add(nodes.startHoldingBlocks("n1", config));
      all.add(nodes.startHoldingBlocks("n2", config));
      all.add(nodes.startHoldingBlocks("n3", config));
      nodes.release();
      await()
          .atMost(Duration.ofSeconds(60))
          .failFast("a node ended", () -> all.stream().anyMatch(n -> !n.isAlive()))
          .until(
              () -> {
                Map<String, Long> blocks = nodes.blocksByNode();
                return blocks.size() == 3
                    && blocks.values().stream().allMatch(b -> b >= 5)
                    && nodes.number(
                            "SELECT COALESCE(MAX(output_bytes), 0) FROM sluice_batch_instance")
                        > 1_000;
              });
      String writerId =
          nodes.strings("SELECT writer FROM sluice_batch_instance WHERE id = 1").getFirst();
      SluiceProcess writer = null;
      for (SluiceProcess node : all) {
        if (writerId.equals(nodes.nodeId(node))) {
          writer = node;
        }
      }
      assertThat(writer).as("the writing node %s among the three", writerId).isNotNull();
      SluiceProcess frozen = writer;
      SluiceProcess killed = all.stream().filter(n -> n != frozen).findFirst().orElseThrow();
      SluiceProcess survivor =
          all.stream().filter(n -> n != frozen && n != killed).findFirst().orElseThrow();

      BatchNodes.signal(frozen, "STOP");
      killed.close(); // SIGKILL
      long frozenAt = nodes.number("SELECT " + BatchNodes.NOW);
      try {
        // Its lease lapses on the database's clock, and the survivor takes the writing in the
        // store (it waits for the file's lock meanwhile).
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    nodes.number(
                            "SELECT COUNT(*) FROM sluice_batch_instance WHERE writer = ?",
                            nodes.nodeId(survivor))
                        == 1);
      } finally {
        BatchNodes.signal(frozen, "CONT");
      }
      long thawedAt = nodes.number("SELECT " + BatchNodes.NOW);

      assertThat(survivor.awaitExit(180)).as("exit code of the survivor").isZero();
      int frozenExit = frozen.awaitExit(60);
      System.out.printf(
          "the writer was frozen %d ms and exited with %d%n", thawedAt - frozenAt, frozenExit);
      assertThat(frozenExit).as("exit code of the frozen writer").isZero();
      assertThat(frozen.log()).contains("lost its lease");
      survivor.log().lines().filter(l -> l.contains("output")).forEach(System.out::println);
      assertThat(survivor.log()).contains("writes the output");

      BatchNodes.Instance instance = nodes.instance();
      assertThat(instance.state()).as("instance %s", instance).isEqualTo("COMPLETED");
      assertThat(instance.processed()).isEqualTo(RECORDS);
      assertThat(instance.successful()).isEqualTo(RECORDS);
      assertThat(nodes.stepsProcessed())
          .as("records the step committed")
          .isEqualTo(Map.of(0, RECORDS));
      assertThat(Files.size(out))
          .as("bytes of the file against those the commits count")
          .isEqualTo(nodes.number("SELECT output_bytes FROM sluice_batch_instance WHERE id = 1"));
      List<String> wrong = new ArrayList<>();
      long lines = 0;
      try (BufferedReader reader = Files.newBufferedReader(out, StandardCharsets.UTF_8)) {
        assertThat(reader.readLine()).isEqualTo("n");
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          lines++;
          // the generator's payload is the index from 0; the step doubles it
          String expected = Long.toString(2 * (lines - 1));
          if (!line.equals(expected) && wrong.size() < 20) {
            wrong.add("line " + (lines + 1) + ": " + line + ", not " + expected);
          }
        }
      }
      assertThat(wrong).as("lines out of place (the first 20)").isEmpty();
      assertThat(lines).isEqualTo(RECORDS);
    } catch (AssertionError | RuntimeException e) {
      nodes.addLogs(e);
      throw e;
    }
  }
}
