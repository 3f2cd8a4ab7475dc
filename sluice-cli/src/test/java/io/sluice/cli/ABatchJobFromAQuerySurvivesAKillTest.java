package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchState;
import io.sluice.core.app.Application;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice batch run} of a job copying a SQLite table to another through a {@code query} input
 * and an aggregator's {@code db-bulk}, killed with SIGKILL mid-way and run again: the instance
 * resumes after the last key stored with its blocks and loads each row once (its loaded count is
 * the table's rows), and the target, written with {@code ON CONFLICT DO NOTHING} since a group
 * written before the kill is written again, holds every row once.
 */
@Tag("crash") // starts Sluice processes and kills one: not in the fast suite
class ABatchJobFromAQuerySurvivesAKillTest {

  static final int ROWS = 3000;

  @TempDir Path work;

  @Test
  void theResumedInstanceLoadsEachRowOnceAndTheTargetHoldsEachOnce() throws Exception {
    Path shop =
        ShopDatabase.withOrders(
            work.resolve("shop.db"),
            ROWS,
            "PRAGMA journal_mode=WAL", // the query reads while db-bulk writes the file
            "CREATE TABLE copied (id integer primary key, sku text not null)");
    Files.writeString(
        work.resolve("copy.yaml"),
        """
        dataSources:
          - name: shop
            url: "jdbc:sqlite:%s"
        batch:
          - name: copy
            blockSize: 50
            threads: 2
            input:
              query:
                dataSource: shop
                sql: SELECT id, sku FROM orders WHERE id > :after ORDER BY id
                keyColumn: id
                fetchSize: 100
            steps:
              - name: write
                processors:
                  - component: { class: io.sluice.cli.SlowCopy }
                aggregator:
                  size: 100
                  sink:
                    - db-bulk:
                        dataSource: shop
                        batchSize: 100
                        sql: INSERT INTO copied (id, sku) VALUES (:id, :sku) ON CONFLICT (id) DO NOTHING
        """
            .formatted(shop));

    try (SluiceProcess first = SluiceProcess.start(work, "batch", "run", "copy.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> count(shop) >= 300 || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      first.close(); // SIGKILL
    }
    BatchInstance atKill = instances().getFirst();
    assertThat(atKill.loaded()).as("the kill came while the input was read").isLessThan(ROWS);

    try (SluiceProcess second = SluiceProcess.start(work, "batch", "run", "copy.yaml")) {
      assertThat(second.awaitExit(180)).as("exit code; log:%n%s", second.log()).isZero();
      assertThat(second.log()).contains("resumes");
    }

    List<BatchInstance> instances = instances();
    assertThat(instances).hasSize(1);
    assertThat(instances.getFirst().state()).isEqualTo(BatchState.COMPLETED);
    assertThat(instances.getFirst().loaded()).as("rows loaded, over both runs").isEqualTo(ROWS);
    assertThat(instances.getFirst().successful()).isEqualTo(ROWS);
    assertThat(count(shop)).isEqualTo(ROWS);
  }

  private List<BatchInstance> instances() {
    try (Application reader =
        Application.builder()
            .storage(StorageConfig.builder().dataDir(work.resolve("data")).build())
            .build()) {
      return BatchEngine.of(reader).instances("copy", 5);
    }
  }

  private static long count(Path shop) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + shop);
        Statement statement = connection.createStatement();
        ResultSet results = statement.executeQuery("SELECT count(*) FROM copied")) {
      results.next();
      return results.getLong(1);
    }
  }
}
