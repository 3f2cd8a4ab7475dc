package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/split-aggregate.yaml killed with SIGKILL while orders are split, queued and gathered,
 * then started again: every order comes out once, with each of its lines once and in order.
 */
@Tag("crash") // starts Sluice processes and kills one: not in the fast suite
class SplitAggregateExampleSurvivesAKillTest {

  static final int ORDERS = 60;
  static final int LINES = 40;

  @TempDir Path work;

  private static List<Integer> missing(Path out) {
    List<Integer> missing = new ArrayList<>();
    for (int order = 0; order < ORDERS; order++) {
      if (!Files.exists(out.resolve("order-" + order + ".json"))) {
        missing.add(order);
      }
    }
    return missing;
  }

  private static List<String> names(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(path -> path.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void everyOrderComesOutWholeAfterAKill() throws Exception {
    Files.copy(Path.of("../examples/split-aggregate.yaml"), work.resolve("split-aggregate.yaml"));
    Path orders = Files.createDirectories(work.resolve("orders"));
    for (int order = 0; order < ORDERS; order++) {
      StringBuilder csv = new StringBuilder("sku,qty\n");
      for (int line = 0; line < LINES; line++) {
        csv.append("o")
            .append(order)
            .append("-l")
            .append(line)
            .append(',')
            .append(line)
            .append('\n');
      }
      Files.writeString(orders.resolve("order-" + order + ".csv"), csv);
    }
    Path out = Files.createDirectories(work.resolve("out"));
    // What a kill in the middle of file-write leaves: its hidden temporary, never renamed.
    Files.writeString(out.resolve(".order-0.json.4f1d2c.tmp"), "[{\"sku\":\"o0-l");
    String firstLog;
    try (SluiceProcess first = SluiceProcess.start(work, "run", "split-aggregate.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> FileCopyExampleRunsAsAProcessTest.count(out) >= 1 || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      first.close(); // SIGKILL
      firstLog = first.log();
    }
    long outAtKill = FileCopyExampleRunsAsAProcessTest.count(out);
    try (SluiceProcess second = SluiceProcess.start(work, "run", "split-aggregate.yaml")) {
      try {
        await()
            .atMost(Duration.ofSeconds(120))
            .until(
                () -> FileCopyExampleRunsAsAProcessTest.count(out) == ORDERS || !second.isAlive());
      } catch (ConditionTimeoutException e) {
        throw new AssertionError(
            String.format(
                "orders missing from out/: %s; left in orders/: %s; first run's log:%n%s%n"
                    + "second run's log:%n%s",
                missing(out), names(work.resolve("orders")), firstLog, second.log()),
            e);
      }
      assertThat(second.isAlive()).as("log:%n%s", second.log()).isTrue();
      second.terminate();
      assertThat(second.awaitExit(60)).as("exit code; log:%n%s", second.log()).isZero();
    }
    assertThat(outAtKill)
        .as("the kill came while orders were still being gathered")
        .isLessThan(ORDERS);
    ObjectMapper json = new ObjectMapper();
    for (int order = 0; order < ORDERS; order++) {
      JsonNode lines = json.readTree(out.resolve("order-" + order + ".json").toFile());
      List<String> skus = new ArrayList<>();
      lines.forEach(line -> skus.add(line.get("sku").asText()));
      List<String> expected = new ArrayList<>();
      for (int line = 0; line < LINES; line++) {
        expected.add("o" + order + "-l" + line);
      }
      assertThat(skus).as("order %d", order).isEqualTo(expected);
    }
  }
}
