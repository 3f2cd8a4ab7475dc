package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/db-batch-copy.yaml run by {@code sluice batch run} as a process, twice: its initSql
 * makes billing.db with 1000 orders, and each order becomes one invoice, transformed by the step
 * (the customer trimmed and in capitals, the VAT rate of its country, VAT and gross to the cent);
 * the second run bills them again and, by the upsert, leaves one invoice per order.
 */
@Tag("crash") // starts Sluice processes: not in the fast suite
class DbBatchCopyExampleRunsAsAProcessTest {

  static final int ORDERS = 1000;

  @TempDir Path work;

  @Test
  void everyOrderBecomesOneInvoiceTransformedAndARunAgainWritesNoneTwice() throws Exception {
    Files.copy(Path.of("../examples/db-batch-copy.yaml"), work.resolve("db-batch-copy.yaml"));
    Path billing = work.resolve("billing.db");

    for (int run = 1; run <= 2; run++) {
      try (SluiceProcess process =
          SluiceProcess.start(work, "batch", "run", "db-batch-copy.yaml", "--progress", "none")) {
        assertThat(process.awaitExit(120)).as("exit code; log:%n%s", process.log()).isZero();
        assertThat(process.log())
            .contains("instance " + run + ": COMPLETED")
            .contains("1,000 loaded, 1,000 processed, 1,000 successful, 0 failed");
      }
      assertThat(invoices(billing)).as("run %d", run).isEqualTo(expected(billing));
    }
  }

  /** The invoices each order should give, from the orders table, in order. */
  private static List<String> expected(Path billing) throws Exception {
    List<String> invoices = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + billing);
        Statement statement = connection.createStatement();
        ResultSet orders =
            statement.executeQuery("SELECT id, customer, country, net FROM orders ORDER BY id")) {
      while (orders.next()) {
        String country = orders.getString("country");
        int rate =
            switch (country) {
              case "DE" -> 19;
              case "FR" -> 20;
              default -> 0;
            };
        BigDecimal net = cents(orders.getDouble("net"));
        BigDecimal vat =
            net.multiply(BigDecimal.valueOf(rate))
                .divide(BigDecimal.valueOf(100))
                .setScale(2, RoundingMode.HALF_UP);
        invoices.add(
            invoice(
                orders.getLong("id"),
                orders.getString("customer").trim().toUpperCase(Locale.ROOT),
                country,
                net,
                rate,
                vat,
                net.add(vat)));
      }
    }
    assertThat(invoices).hasSize(ORDERS);
    return invoices;
  }

  private static List<String> invoices(Path billing) throws Exception {
    List<String> invoices = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + billing);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT order_id, customer, country, net, vat_rate, vat, gross FROM invoices"
                    + " ORDER BY order_id")) {
      while (rows.next()) {
        invoices.add(
            invoice(
                rows.getLong(1),
                rows.getString(2),
                rows.getString(3),
                cents(rows.getDouble(4)),
                rows.getInt(5),
                cents(rows.getDouble(6)),
                cents(rows.getDouble(7))));
      }
    }
    return invoices;
  }

  private static String invoice(
      long id,
      String customer,
      String country,
      BigDecimal net,
      int rate,
      BigDecimal vat,
      BigDecimal gross) {
    return id + "|" + customer + "|" + country + "|" + net + "|" + rate + "|" + vat + "|" + gross;
  }

  /** A REAL amount as SQLite keeps it, to the cent. */
  private static BigDecimal cents(double amount) {
    return BigDecimal.valueOf(amount).setScale(2, RoundingMode.HALF_UP);
  }
}
