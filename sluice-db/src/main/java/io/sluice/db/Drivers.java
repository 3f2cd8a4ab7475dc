package io.sluice.db;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.TreeSet;

/** The JDBC drivers on the class path, which {@link DriverManager} finds by their services file. */
final class Drivers {

  private Drivers() {}

  /** Whether a driver on the class path takes {@code url}. */
  static boolean accepts(String url) {
    try {
      DriverManager.getDriver(url);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** The drivers' class names, sorted. */
  static String names() {
    TreeSet<String> names = new TreeSet<>();
    for (Driver driver : Collections.list(DriverManager.getDrivers())) {
      names.add(driver.getClass().getName());
    }
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
