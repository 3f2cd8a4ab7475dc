package io.sluice.bench.db;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Locale;

/**
 * The tables of {@link TableCopyBenchmark} on the local PostgreSQL, in a schema of their own: a
 * source of orders made once per run, a target emptied before each copy, and the check that a copy
 * wrote every row, transformed, once.
 *
 * <p>The transformation every side makes: the country upper-cased, and a {@code total} of the
 * amount with 19% tax, rounded half up to cents.
 */
final class CopyTables {

  static final String SCHEMA = "bench_copy";
  static final String URL = "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + SCHEMA;
  static final String USER = "postgres";
  static final String SOURCE = "copy_source";
  static final String TARGET = "copy_target";
  static final String SELECT =
      "SELECT id, customer, country, amount, created, note FROM " + SOURCE + " ORDER BY id";
  static final String COLUMNS = "id, customer, country, amount, created, note, total";
  static final String INSERT = "INSERT INTO " + TARGET + " (" + COLUMNS + ") VALUES ";
  static final String INSERT_POSITIONAL = INSERT + "(?, ?, ?, ?, ?, ?, ?)";

  private static final BigDecimal TAX = new BigDecimal("1.19");

  /**
   * A row's columns and its checksum, worked out by PostgreSQL from the source with the
   * transformation in SQL for the expected value, and from the target for the copy's.
   */
  private static final String ROW_HASH =
      "hashtext(id || '|' || customer || '|' || %s || '|' || amount || '|' || created || '|' ||"
          + " coalesce(note, '-') || '|' || %s)";

  private CopyTables() {}

  /** An order as read from the source. */
  record Order(
      long id,
      String customer,
      String country,
      BigDecimal amount,
      Timestamp created,
      String note) {}

  /** An order as written to the target. */
  record CopiedOrder(
      long id,
      String customer,
      String country,
      BigDecimal amount,
      Timestamp created,
      String note,
      BigDecimal total) {}

  /** What a copy must leave in the target: its rows and a checksum of all their columns. */
  record Content(long rows, long distinctIds, long checksum, BigDecimal totals) {}

  static String upperCased(String country) {
    return country.toUpperCase(Locale.ROOT);
  }

  static BigDecimal total(BigDecimal amount) {
    return amount.multiply(TAX).setScale(2, RoundingMode.HALF_UP);
  }

  /** The transformation, on a record. */
  static CopiedOrder transform(Order order) {
    return new CopiedOrder(
        order.id(),
        order.customer(),
        upperCased(order.country()),
        order.amount(),
        order.created(),
        order.note(),
        total(order.amount()));
  }

  /** The order at the cursor's row of a result of {@link #SELECT}. */
  static Order order(ResultSet rows) throws SQLException {
    return new Order(
        rows.getLong(1),
        rows.getString(2),
        rows.getString(3),
        rows.getBigDecimal(4),
        rows.getTimestamp(5),
        rows.getString(6));
  }

  /** Binds {@code order} to the seven {@code ?} of {@link #INSERT}. */
  static void bind(PreparedStatement insert, CopiedOrder order) throws SQLException {
    insert.setLong(1, order.id());
    insert.setString(2, order.customer());
    insert.setString(3, order.country());
    insert.setBigDecimal(4, order.amount());
    insert.setTimestamp(5, order.created());
    insert.setString(6, order.note());
    insert.setBigDecimal(7, order.total());
  }

  static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL, USER, null);
  }

  /**
   * Makes the schema anew with a source of {@code rows} orders (a customer among 50,000, a country
   * among eight, an amount, a time within a year, a note; one order in ten without a note) and an
   * empty target with the source's columns, the total and a primary key.
   */
  static void create(long rows) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(URL.replace("?currentSchema=" + SCHEMA, ""), USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
      s.execute("CREATE SCHEMA " + SCHEMA);
      s.execute(
          "CREATE TABLE "
              + SCHEMA
              + "."
              + SOURCE
              + " (id bigint PRIMARY KEY, customer text NOT NULL, country text NOT NULL,"
              + " amount numeric(12,2) NOT NULL, created timestamp NOT NULL, note text)");
      s.execute(
          "INSERT INTO "
              + SCHEMA
              + "."
              + SOURCE
              + " SELECT g, 'customer-' || (g * 7919 % 50000),"
              + " (ARRAY['fr','de','it','es','nl','be','pl','se'])[1 + g % 8],"
              + " round(((g * 104729) % 1000000) / 100.0 + 0.01, 2),"
              + " timestamp '2026-01-01' + ((g * 31) % 31536000) * interval '1 second',"
              + " CASE WHEN g % 10 = 0 THEN NULL ELSE 'order ' || g || ': leave the parcel at"
              + " the door, ring twice' END"
              + " FROM generate_series(1::bigint, "
              + rows
              + ") g");
      s.execute(
          "CREATE TABLE "
              + SCHEMA
              + "."
              + TARGET
              + " (id bigint PRIMARY KEY, customer text NOT NULL, country text NOT NULL,"
              + " amount numeric(12,2) NOT NULL, created timestamp NOT NULL, note text,"
              + " total numeric(12,2) NOT NULL)");
      s.execute("VACUUM ANALYZE " + SCHEMA + "." + SOURCE);
    }
  }

  /** Empties the target; its space too, so that every copy writes into the same empty table. */
  static void emptyTarget() throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE " + TARGET);
    }
  }

  /** What the source says the target must hold after a copy. */
  static Content expected() throws SQLException {
    return content(
        SOURCE,
        String.format(Locale.ROOT, ROW_HASH, "upper(country)", "round(amount * 1.19, 2)"),
        "round(amount * 1.19, 2)");
  }

  /** What the target holds. */
  static Content copied() throws SQLException {
    return content(TARGET, String.format(Locale.ROOT, ROW_HASH, "country", "total"), "total");
  }

  private static Content content(String table, String rowHash, String total) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*), count(DISTINCT id), coalesce(sum("
                    + rowHash
                    + "), 0), coalesce(sum("
                    + total
                    + "), 0) FROM "
                    + table)) {
      r.next();
      return new Content(r.getLong(1), r.getLong(2), r.getLong(3), r.getBigDecimal(4));
    }
  }
}
