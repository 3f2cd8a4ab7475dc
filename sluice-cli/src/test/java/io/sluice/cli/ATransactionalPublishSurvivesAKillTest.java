package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.vm.VmPersistence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice run} with a try whose transaction is on the application's own SQLite store: it
 * inserts an order and publishes it to a persistent queue, and is killed with SIGKILL while one
 * message holds inside the scope, its row and message written and not committed. At the kill no row
 * is without its message and no message without its row; after a restart the held order is read
 * again and every order's work is done.
 */
@Tag("crash") // starts Sluice processes and kills one: not in the fast suite
class ATransactionalPublishSurvivesAKillTest {

  static final int ORDERS = 20;

  @TempDir Path work;

  @Test
  void aKillInsideTheScopeLeavesNoRowWithoutItsMessageNorMessageWithoutItsRow() throws Exception {
    Path store = Files.createDirectories(work.resolve("data")).resolve("sluice.db");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE orders (sku text primary key)");
    }
    Path in = Files.createDirectories(work.resolve("in"));
    for (int i = 1; i < ORDERS; i++) {
      Files.writeString(in.resolve("sku-" + i), "order " + i);
    }
    Files.writeString(work.resolve("hold"), "");
    Files.writeString(
        work.resolve("orders.yaml"),
        """
        dataSources:
          - { name: store, url: "jdbc:sqlite:data/sluice.db" }
        flows:
          - name: orders
            source:
              file: { directory: in, pollingFrequency: 100ms, maxConcurrentFiles: 1 }
            processors:
              - set-payload: { value: "#[attributes.fileName]" }
              - try:
                  transaction: store
                  processors:
                    - db-insert: { dataSource: store, sql: "INSERT INTO orders (sku) VALUES (:sku)", parameters: { sku: "#[payload]" }, target: inserted }
                    - vm-publish: { queue: work, persistent: true }
                    - component: { class: io.sluice.cli.HoldWhileFileExists }
          - name: work
            source:
              vm-listener: { queue: work, persistent: true }
            processors:
              - set-payload: { value: "#[payload]\\n" }
              - file-write: { directory: out, fileName: done.txt, mode: APPEND }
        """);
    Path done = work.resolve("out").resolve("done.txt");

    try (SluiceProcess first = SluiceProcess.start(work, "run", "orders.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> done(done).size() == ORDERS - 1 || !first.isAlive());
      // The held order last: on SQLite its open scope holds the file's write lock.
      Files.writeString(in.resolve("sku-" + ORDERS), "order " + ORDERS);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> Files.exists(work.resolve("holding")) || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      first.close(); // SIGKILL, sku-20 inside its scope
    }

    Set<String> rows = rows(store);
    Set<String> doneAtKill = done(done);
    long queued = queued(store);
    assertThat(rows).as("the held order's row was not committed").doesNotContain("sku-20");
    assertThat(rows).as("no message was handled without its row").containsAll(doneAtKill);
    assertThat((long) rows.size())
        .as("no row without its message: each was handled or waits in the queue")
        .isLessThanOrEqualTo(doneAtKill.size() + queued);
    assertThat(rows.size() + queued)
        .as("the held order's message was not committed either")
        .isLessThanOrEqualTo(2L * (ORDERS - 1));

    Files.delete(work.resolve("hold"));
    try (SluiceProcess second = SluiceProcess.start(work, "run", "orders.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> done(done).size() == ORDERS || !second.isAlive());
      assertThat(second.isAlive()).as("log:%n%s", second.log()).isTrue();
      second.terminate();
      assertThat(second.awaitExit(60)).as("exit code; log:%n%s", second.log()).isZero();
    }
    assertThat(rows(store)).hasSize(ORDERS).contains("sku-20");
    assertThat(done(done)).isEqualTo(rows(store));
    assertThat(queued(store)).isZero();
  }

  private static Set<String> rows(Path store) throws SQLException {
    Set<String> skus = new HashSet<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
        ResultSet rs = connection.createStatement().executeQuery("SELECT sku FROM orders")) {
      while (rs.next()) {
        skus.add(rs.getString(1));
      }
    }
    return skus;
  }

  private static long queued(Path store) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
        ResultSet rs =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT count(*) FROM sluice_queue WHERE queue = '"
                        + VmPersistence.durableName("work")
                        + "'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Set<String> done(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Set.of();
    }
    List<String> lines = Files.readAllLines(file);
    Set<String> skus = new HashSet<>();
    lines.stream().filter(line -> !line.isBlank()).forEach(skus::add);
    return skus;
  }
}
