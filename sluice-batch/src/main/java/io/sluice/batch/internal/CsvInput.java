package io.sluice.batch.internal;

import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CSV file whose first line names the columns; each further line is a map of column to text.
 * Quotes follow RFC 4180 within a line ({@code "a, b"}, {@code "say ""hi"""}); a field may not span
 * lines.
 */
public final class CsvInput extends LineInput {

  private final Path file;
  private List<String> columns;

  /** The CSV file {@code file}. */
  public CsvInput(Path file) {
    super(file);
    this.file = file;
  }

  @Override
  int headerLines() {
    return 1;
  }

  @Override
  void header(BufferedReader reader) throws IOException {
    String line = reader.readLine();
    List<String> names = line == null ? null : fields(line);
    if (names == null || names.isEmpty() || names.stream().anyMatch(String::isBlank)) {
      throw new BatchInputException(
          "The batch input "
              + file.toAbsolutePath()
              + " has no header line naming its columns (line 1: "
              + (line == null ? "the file is empty" : "'" + line + "'")
              + ")",
          null);
    }
    columns = names;
  }

  @Override
  BatchRecord parse(long number, String line) {
    List<String> values = fields(line);
    if (values == null) {
      return new BatchRecord(
          number, line, BatchRecord.INPUT, "line " + number + " has a quote that is not closed");
    }
    if (values.size() != columns.size()) {
      return new BatchRecord(
          number,
          line,
          BatchRecord.INPUT,
          "line "
              + number
              + " has "
              + values.size()
              + " field(s), the header names "
              + columns.size());
    }
    Map<String, String> row = LinkedHashMap.newLinkedHashMap(columns.size());
    for (int i = 0; i < values.size(); i++) {
      row.put(columns.get(i), values.get(i));
    }
    return BatchRecord.of(number, row);
  }

  /** The fields of {@code line}, or null when a quote is not closed. */
  static List<String> fields(String line) {
    if (line.indexOf('"') < 0) {
      // No quote: the fields are what lies between the commas, cut out without copying a char
      // at a time.
      List<String> fields = new ArrayList<>(8);
      int from = 0;
      for (int comma = line.indexOf(','); comma >= 0; comma = line.indexOf(',', from)) {
        fields.add(line.substring(from, comma));
        from = comma + 1;
      }
      fields.add(line.substring(from));
      return fields;
    }
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    int length = line.length();
    while (true) {
      if (i < length && line.charAt(i) == '"') {
        i++;
        while (true) {
          if (i >= length) {
            return null;
          }
          char c = line.charAt(i++);
          if (c == '"') {
            if (i < length && line.charAt(i) == '"') {
              field.append('"');
              i++;
            } else {
              break;
            }
          } else {
            field.append(c);
          }
        }
        // after a closing quote: up to the next comma (text there is kept, as most readers do)
      }
      while (i < length && line.charAt(i) != ',') {
        field.append(line.charAt(i++));
      }
      fields.add(field.toString());
      field.setLength(0);
      if (i >= length) {
        return fields;
      }
      i++; // the comma
    }
  }
}
