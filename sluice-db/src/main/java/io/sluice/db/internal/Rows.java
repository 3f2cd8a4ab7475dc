package io.sluice.db.internal;

import io.sluice.core.RowMap;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the rows of a result set as maps, by column label, in the columns' order: each a {@link
 * RowMap} sharing the result's labels. Every reader of rows (the select, listed or streamed, the
 * poll, the batch query input, generated keys) makes them here.
 *
 * <p>A label given to two columns ({@code SELECT a, a}) is one key, where the first of them is,
 * holding the last one's value: what a {@link java.util.LinkedHashMap} filled column after column
 * held.
 */
public final class Rows {

  private final String[] labels;
  private final RowMap.Columns columns;
  // The key each column's value goes to, or null when every label is its own key.
  private final int[] slots;
  private final int localColumn;

  /** The reader of {@code results}' rows. */
  public Rows(ResultSet results) throws SQLException {
    this(results, null);
  }

  /**
   * The reader of {@code results}' rows, the column labelled {@code localTimestamp} (exactly, or
   * regardless of case) read as a {@link LocalDateTime} when it is a timestamp without time zone
   * (PostgreSQL's {@code timestamp}, MariaDB's {@code datetime} and {@code timestamp}): the drivers
   * give a {@link Timestamp}, an instant made of the value in the JVM's time zone, which a process
   * in another zone would bind as another value. Null: no such column.
   */
  public Rows(ResultSet results, String localTimestamp) throws SQLException {
    ResultSetMetaData meta = results.getMetaData();
    labels = new String[meta.getColumnCount()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = meta.getColumnLabel(i + 1);
    }
    List<String> keys = new ArrayList<>(labels.length);
    Map<String, Integer> firstOf = HashMap.newHashMap(labels.length);
    int[] slotOf = new int[labels.length];
    for (int i = 0; i < labels.length; i++) {
      Integer first = firstOf.putIfAbsent(labels[i], keys.size());
      if (first == null) {
        first = keys.size();
        keys.add(labels[i]);
      }
      slotOf[i] = first;
    }
    columns = RowMap.Columns.of(keys);
    slots = keys.size() == labels.length ? null : slotOf;
    int column = find(localTimestamp);
    localColumn = column >= 0 && zoneless(meta, column + 1) ? column : -1;
  }

  /** The current row. Large objects are read whole: they would not outlive the connection. */
  public Map<String, Object> row(ResultSet results) throws SQLException {
    Object[] row = new Object[columns.size()];
    for (int i = 0; i < labels.length; i++) {
      Object value = results.getObject(i + 1);
      if (value instanceof Blob blob) {
        value = blob.getBytes(1, (int) blob.length());
      } else if (value instanceof Clob clob) {
        value = clob.getSubString(1, (int) clob.length());
      } else if (i == localColumn && value instanceof Timestamp timestamp) {
        value = local(results, i + 1, timestamp);
      }
      row[slots == null ? i : slots[i]] = value;
    }
    return columns.row(row);
  }

  private int find(String label) {
    if (label == null) {
      return -1;
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i].equals(label)) {
        return i;
      }
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i].equalsIgnoreCase(label)) {
        return i;
      }
    }
    return -1;
  }

  /** A TIMESTAMP column whose type names no zone (PostgreSQL reports timestamptz as TIMESTAMP). */
  private static boolean zoneless(ResultSetMetaData meta, int column) throws SQLException {
    String type = String.valueOf(meta.getColumnTypeName(column)).toLowerCase(Locale.ROOT);
    return meta.getColumnType(column) == Types.TIMESTAMP
        && !type.contains("tz")
        && !type.contains("zone");
  }

  /** The column's value as the driver reads it without a zone, or the timestamp's local time. */
  private static LocalDateTime local(ResultSet results, int column, Timestamp timestamp) {
    try {
      LocalDateTime value = results.getObject(column, LocalDateTime.class);
      return value != null ? value : timestamp.toLocalDateTime();
    } catch (SQLException e) {
      return timestamp.toLocalDateTime(); // a driver without java.time: the same in this zone
    }
  }
}
