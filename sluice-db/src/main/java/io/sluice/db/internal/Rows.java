package io.sluice.db.internal;

import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the rows of a result set as maps, by column label, in the columns' order. */
public final class Rows {

  private final String[] labels;

  /** The reader of {@code results}' rows. */
  public Rows(ResultSet results) throws SQLException {
    ResultSetMetaData meta = results.getMetaData();
    labels = new String[meta.getColumnCount()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = meta.getColumnLabel(i + 1);
    }
  }

  /** The current row. Large objects are read whole: they would not outlive the connection. */
  public Map<String, Object> row(ResultSet results) throws SQLException {
    Map<String, Object> row = LinkedHashMap.newLinkedHashMap(labels.length);
    for (int i = 0; i < labels.length; i++) {
      Object value = results.getObject(i + 1);
      if (value instanceof Blob blob) {
        value = blob.getBytes(1, (int) blob.length());
      } else if (value instanceof Clob clob) {
        value = clob.getSubString(1, (int) clob.length());
      }
      row.put(labels[i], value);
    }
    return row;
  }
}
