package io.sluice.batch.internal;

import io.sluice.batch.BatchOutput;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigProblems;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * A CSV output ({@link BatchOutput#csv}): a header naming the columns, then a line per record.
 * Formatting is pure, so it runs on the threads that finish blocks, not on the one that writes.
 */
public final class CsvOutput implements BatchOutput {

  private final Path file;
  private final List<String> columns;
  private final String header;

  private CsvOutput(Path file, List<String> columns) {
    this.file = file;
    this.columns = columns;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        text.append(',');
      }
      field(text, columns.get(i));
    }
    this.header = text.append('\n').toString();
  }

  /** The CSV output of {@code columns} into {@code file}; a configuration error for bad columns. */
  public static CsvOutput of(Path file, List<String> columns) {
    ConfigProblems problems = new ConfigProblems();
    problems.check(!columns.isEmpty(), "output.columns", "[]", "needs at least one column");
    HashSet<String> seen = new HashSet<>();
    for (String column : columns) {
      if (column == null || column.isBlank()) {
        problems.add(ConfigProblem.of("output.columns", column, "a column needs a name"));
      } else if (!seen.add(column)) {
        problems.add(ConfigProblem.of("output.columns", column, "is named twice"));
      }
    }
    problems.throwIfAny();
    return new CsvOutput(file, List.copyOf(columns));
  }

  @Override
  public Path file() {
    return file;
  }

  @Override
  public String describe() {
    return "csv " + file + " " + columns;
  }

  @Override
  public String header() {
    return header;
  }

  @Override
  public String line(Object payload) {
    StringBuilder line = new StringBuilder(16 * columns.size());
    switch (payload) {
      case Map<?, ?> map -> {
        for (int i = 0; i < columns.size(); i++) {
          String column = columns.get(i);
          Object value = map.get(column);
          if (value == null && !map.containsKey(column)) {
            throw new IllegalArgumentException(
                "the payload has no '" + column + "' (its keys: " + map.keySet() + ")");
          }
          separate(line, i);
          field(line, value);
        }
      }
      case List<?> list -> {
        count(list.size());
        for (int i = 0; i < list.size(); i++) {
          separate(line, i);
          field(line, list.get(i));
        }
      }
      case Object array when array.getClass().isArray() -> {
        int size = Array.getLength(array);
        count(size);
        for (int i = 0; i < size; i++) {
          separate(line, i);
          field(line, Array.get(array, i));
        }
      }
      case null, default -> {
        if (columns.size() != 1) {
          throw new IllegalArgumentException(
              "a "
                  + (payload == null ? "null" : payload.getClass().getSimpleName())
                  + " payload gives one value, the output has "
                  + columns.size()
                  + " columns: make the payload a map of column to value, or a list");
        }
        field(line, payload);
      }
    }
    return line.append('\n').toString();
  }

  private void count(int values) {
    if (values != columns.size()) {
      throw new IllegalArgumentException(
          "the payload has " + values + " value(s), the output has " + columns.size() + " columns");
    }
  }

  private static void separate(StringBuilder line, int index) {
    if (index > 0) {
      line.append(',');
    }
  }

  /** Appends {@code value}'s text, quoted when it holds a comma, a quote or a line end. */
  static void field(StringBuilder line, Object value) {
    if (value == null) {
      return;
    }
    String text = value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
    boolean quote = false;
    for (int i = 0; i < text.length() && !quote; i++) {
      char c = text.charAt(i);
      quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) {
      line.append(text);
      return;
    }
    line.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        line.append('"');
      }
      line.append(c);
    }
    line.append('"');
  }
}
