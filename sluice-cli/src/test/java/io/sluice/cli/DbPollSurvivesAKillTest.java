package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.StorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice run} polling a SQLite table with db-poll, killed with SIGKILL while rows go
 * through, then started again: the watermark kept at the kill never passed a row whose message had
 * not completed, and after the restart every row was handed over at least once, again at most those
 * of the poll the kill cut.
 */
@Tag("crash") // starts Sluice processes and kills one: not in the fast suite
class DbPollSurvivesAKillTest {

  static final int ROWS = 2000;
  static final int MAX_ROWS = 20;

  @TempDir Path work;

  @Test
  void everyRowIsHandedOverAndTheWatermarkNeverPassesARowNotDone() throws Exception {
    Path shop = ShopDatabase.withOrders(work.resolve("shop.db"), ROWS);
    Files.writeString(
        work.resolve("poll.yaml"),
        """
        dataSources:
          - name: shop
            url: "jdbc:sqlite:%s"
        flows:
          - name: orders
            source:
              db-poll:
                dataSource: shop
                sql: SELECT id, sku FROM orders WHERE id > :watermark ORDER BY id
                watermarkColumn: id
                initialWatermark: 0
                maxRows: %d
                frequency: 100ms
            processors:
              - component: { class: io.sluice.cli.SlowCopy }
              - set-payload: { value: "#[payload.id]\\n" }
              - file-write: { directory: out, fileName: handled.txt, mode: APPEND }
        """
            .formatted(shop, MAX_ROWS));
    Path handled = work.resolve("out").resolve("handled.txt");

    try (SluiceProcess first = SluiceProcess.start(work, "run", "poll.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> ids(handled).size() >= 200 || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      first.close(); // SIGKILL
    }
    Map<Long, Integer> atKill = counts(ids(handled));
    long kept = watermark();
    assertThat(atKill.size()).as("the kill came while rows went through").isLessThan(ROWS);
    for (long id = 1; id <= kept; id++) {
      assertThat(atKill).as("row %d is under the watermark kept, %d", id, kept).containsKey(id);
    }

    try (SluiceProcess second = SluiceProcess.start(work, "run", "poll.yaml")) {
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> counts(ids(handled)).size() == ROWS || !second.isAlive());
      assertThat(second.isAlive()).as("log:%n%s", second.log()).isTrue();
      second.terminate();
      assertThat(second.awaitExit(60)).as("exit code; log:%n%s", second.log()).isZero();
    }
    Map<Long, Integer> all = counts(ids(handled));
    assertThat(all.keySet())
        .hasSize(ROWS)
        .allSatisfy(id -> assertThat(id).isBetween(1L, (long) ROWS));
    long twice = all.values().stream().filter(n -> n > 1).count();
    assertThat(twice)
        .as("rows handed over again: only those of the poll the kill cut")
        .isLessThanOrEqualTo(MAX_ROWS);
    assertThat(all.entrySet())
        .filteredOn(e -> e.getValue() > 1)
        .allSatisfy(e -> assertThat(e.getKey()).isGreaterThan(kept));
    assertThat(watermark()).isEqualTo(ROWS);
  }

  /** The watermark the application's store keeps, read as the command would. */
  private long watermark() {
    try (Application reader =
        Application.builder()
            .storage(StorageConfig.builder().dataDir(work.resolve("data")).build())
            .build()) {
      Object kept =
          reader
              .storage()
              .objectStore("db-poll.orders", ObjectStoreOptions.DEFAULTS)
              .get("watermark")
              .orElse("long:0");
      return Long.parseLong(String.valueOf(kept).substring("long:".length()));
    }
  }

  private static List<Long> ids(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file).stream()
        .filter(line -> !line.isBlank())
        .map(Long::parseLong)
        .toList();
  }

  private static Map<Long, Integer> counts(List<Long> ids) {
    Map<Long, Integer> counts = new HashMap<>();
    ids.forEach(id -> counts.merge(id, 1, Integer::sum));
    return counts;
  }
}
