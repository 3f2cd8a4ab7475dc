package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/db-poll-router.yaml as a process: its initSql makes shop.db with three orders, which it
 * routes; orders inserted while it runs land in the table their amount and country say; killed with
 * SIGKILL while they go through, more inserted, started again: every order is in exactly one target
 * table, the right one, once (the rows of the poll the kill cut are handed over again and written
 * once, by their key).
 */
@Tag("crash") // starts Sluice processes and kills one: not in the fast suite
class DbPollRouterExampleSurvivesAKillTest {

  static final int SEEDED = 3;
  static final int WHILE_RUNNING = 3000;
  static final int AFTER_THE_KILL = 500;
  static final String[] COUNTRIES = {"DE", "FR", "US", "JP", "PL", "BR"};
  static final Set<String> EU = Set.of("AT", "BE", "DE", "ES", "FR", "IT", "NL", "PL");

  @TempDir Path work;

  /** A routed row: the order's id, the table it landed in and the customer written there. */
  record Routed(long id, String table, String customer) {}

  @Test
  void everyOrderLandsOnceInTheTableOfItsRoute() throws Exception {
    Files.copy(Path.of("../examples/db-poll-router.yaml"), work.resolve("db-poll-router.yaml"));
    Path shop = work.resolve("shop.db");
    int total = SEEDED + WHILE_RUNNING + AFTER_THE_KILL;

    int atKill;
    try (SluiceProcess first = SluiceProcess.start(work, "run", "db-poll-router.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> routed(shop).size() == SEEDED || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      insertOrders(shop, SEEDED + 1, SEEDED + WHILE_RUNNING);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> routed(shop).size() >= SEEDED + 300 || !first.isAlive());
      assertThat(first.isAlive()).as("log:%n%s", first.log()).isTrue();
      first.close(); // SIGKILL
      atKill = routed(shop).size();
    }
    insertOrders(shop, SEEDED + WHILE_RUNNING + 1, total);

    try (SluiceProcess second = SluiceProcess.start(work, "run", "db-poll-router.yaml")) {
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> routed(shop).size() >= total || !second.isAlive());
      assertThat(second.isAlive()).as("log:%n%s", second.log()).isTrue();
      second.terminate();
      assertThat(second.awaitExit(60)).as("exit code; log:%n%s", second.log()).isZero();
    }

    assertThat(atKill)
        .as("the kill came while the orders went through")
        .isLessThan(SEEDED + WHILE_RUNNING);
    List<Routed> routed = routed(shop);
    Map<Long, Routed> byId = new TreeMap<>();
    routed.forEach(row -> byId.put(row.id(), row));
    assertThat(routed).as("one target row per order, none in two tables").hasSize(total);
    assertThat(byId).hasSize(total);
    try (Connection connection = connect(shop);
        Statement statement = connection.createStatement();
        ResultSet orders =
            statement.executeQuery("SELECT id, customer, country, amount FROM orders")) {
      int seen = 0;
      while (orders.next()) {
        seen++;
        long id = orders.getLong("id");
        String table = route(orders.getDouble("amount"), orders.getString("country"));
        assertThat(byId.get(id))
            .as("order %d", id)
            .isEqualTo(new Routed(id, table, orders.getString("customer")));
      }
      assertThat(seen).isEqualTo(total);
    }
  }

  /** The table the example's choice sends an order to. */
  private static String route(double amount, String country) {
    if (amount >= 1000) {
      return "orders_to_review";
    }
    return EU.contains(country) ? "eu_shipments" : "export_shipments";
  }

  /** Orders {@code from} to {@code to}: a country in turn, amounts from 0 to 1800. */
  private static void insertOrders(Path shop, int from, int to) throws SQLException {
    try (Connection connection = connect(shop)) {
      connection.setAutoCommit(false);
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO orders (id, customer, country, amount) VALUES (?, ?, ?, ?)")) {
        for (int id = from; id <= to; id++) {
          insert.setInt(1, id);
          insert.setString(2, "customer-" + id);
          insert.setString(3, COUNTRIES[id % COUNTRIES.length]);
          insert.setInt(4, (id % 10) * 200);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      connection.commit();
    }
  }

  /** Every row of the three target tables; empty until the example made them. */
  private static List<Routed> routed(Path shop) throws SQLException {
    List<Routed> rows = new ArrayList<>();
    if (!Files.exists(shop)) {
      return rows;
    }
    try (Connection connection = connect(shop);
        Statement statement = connection.createStatement()) {
      for (String table : List.of("eu_shipments", "export_shipments", "orders_to_review")) {
        try (ResultSet results =
            statement.executeQuery("SELECT order_id, customer FROM " + table)) {
          while (results.next()) {
            rows.add(new Routed(results.getLong(1), table, results.getString(2)));
          }
        } catch (SQLException e) {
          if (!String.valueOf(e.getMessage()).contains("no such table")) {
            throw e;
          }
          return List.of(); // initSql has not made it yet
        }
      }
    }
    return rows;
  }

  private static Connection connect(Path shop) throws SQLException {
    Connection connection = DriverManager.getConnection("jdbc:sqlite:" + shop);
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA busy_timeout = 10000"); // the example writes the file too
    }
    return connection;
  }
}
