package io.sluice.cli;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/** A SQLite file with a table {@code orders (id, sku)} of rows 1 to n, for the db kill tests. */
final class ShopDatabase {

  private ShopDatabase() {}

  /** Creates {@code file} with {@code rows} orders, after running {@code ddl} first. */
  static Path withOrders(Path file, int rows, String... ddl) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      for (String sql : ddl) {
        statement.execute(sql);
      }
      statement.execute("CREATE TABLE orders (id integer primary key, sku text not null)");
      connection.setAutoCommit(false);
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO orders (id, sku) VALUES (?, ?)")) {
        for (int id = 1; id <= rows; id++) {
          insert.setInt(1, id);
          insert.setString(2, "sku-" + id);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      connection.commit();
    }
    return file;
  }
}
