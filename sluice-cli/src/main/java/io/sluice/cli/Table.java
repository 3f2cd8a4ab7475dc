package io.sluice.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows printed under a header as aligned columns, each as wide as its widest cell, two spaces
 * apart; the last column is not padded, so a long text there (an error) does not widen the others.
 */
final class Table {

  private final List<String[]> rows = new ArrayList<>();

  Table(String... header) {
    rows.add(header);
  }

  /** Adds a row; a null cell prints as {@code -}. */
  Table row(Object... cells) {
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "-" : cells[i].toString();
    }
    rows.add(row);
    return this;
  }

  void print(PrintWriter out) {
    print(out, "");
  }

  /** Prints the rows, each line after {@code indent}. */
  void print(PrintWriter out, String indent) {
    int columns = rows.getFirst().length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < columns - 1; i++) {
        line.append(row[i]).append(" ".repeat(widths[i] - row[i].length() + 2));
      }
      out.println(line.append(row[columns - 1]));
    }
  }
}
