package io.sluice.formats.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.sluice.formats.Format;
import io.sluice.formats.FormatException;
import io.sluice.formats.WriteConfig;
import java.io.IOException;
import java.io.StringWriter;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes plain Java values (maps, lists, scalars; for JSON and CSV also an iterator, consumed one
 * value at a time) as text in one format. Thread-safe.
 */
public final class DocumentWriter {

  private final WriteConfig config;
  private final ObjectWriter writer;
  private final ObjectMapper mapper;

  /** A writer of {@code config}'s format and settings. */
  public DocumentWriter(WriteConfig config) {
    this.config = config;
    SimpleModule time = new SimpleModule("sluice-time");
    // java.time values (a file's lastModified) are written as their ISO text, not refused.
    time.addSerializer(TemporalAccessor.class, ToStringSerializer.instance);
    time.addSerializer(TemporalAmount.class, ToStringSerializer.instance);
    this.mapper =
        switch (config.format()) {
          case JSON -> new ObjectMapper();
          case XML -> new XmlMapper();
          case YAML -> new YAMLMapper().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER);
          case CSV -> new CsvMapper().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING);
        };
    mapper.registerModule(time);
    ObjectWriter w = config.pretty() ? mapper.writerWithDefaultPrettyPrinter() : mapper.writer();
    this.writer = config.format() == Format.XML ? w.withRootName(config.rootElement()) : w;
  }

  /** The text {@code value} is written as. */
  public String write(Object value) {
    try {
      if (config.format() == Format.CSV) {
        return csv(value);
      }
      if (value instanceof Iterator<?> values) {
        return config.format() == Format.JSON
            ? jsonArray(values)
            : writer.writeValueAsString(drain(values));
      }
      return writer.writeValueAsString(value);
    } catch (IOException | RuntimeException e) {
      if (e instanceof FormatException already) {
        throw already;
      }
      String reason = e.getMessage() == null ? e.toString() : e.getMessage();
      int newline = reason.indexOf('\n');
      throw FormatException.write(
          config.format(), newline < 0 ? reason : reason.substring(0, newline), e);
    } finally {
      if (value instanceof Iterator<?> && value instanceof AutoCloseable closeable) {
        closeQuietly(closeable);
      }
    }
  }

  private String jsonArray(Iterator<?> values) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator generator = writer.createGenerator(out)) {
      generator.writeStartArray();
      while (values.hasNext()) {
        writer.writeValue(generator, values.next());
      }
      generator.writeEndArray();
    }
    return out.toString();
  }

  private static List<Object> drain(Iterator<?> values) {
    List<Object> all = new ArrayList<>();
    values.forEachRemaining(all::add);
    return all;
  }

  /** Rows of maps (cells by column name) or of lists (cells in order), one at a time. */
  private String csv(Object value) throws IOException {
    Iterator<?> rows = rows(value);
    List<String> columns = config.columns();
    Object first = rows.hasNext() ? rows.next() : null;
    if (columns.isEmpty() && first instanceof Map<?, ?> map) {
      columns = map.keySet().stream().map(String::valueOf).toList();
    }
    if (config.header() && columns.isEmpty() && first != null) {
      throw FormatException.write(
          Format.CSV,
          "the rows are lists, so no header names their columns: set columns, or header: false",
          null);
    }
    CsvSchema.Builder schema = CsvSchema.builder();
    columns.forEach(schema::addColumn);
    CsvSchema csvSchema =
        schema
            .build()
            .withColumnSeparator(config.separator())
            .withQuoteChar(config.quote())
            .withLineSeparator("\n");
    csvSchema = config.header() ? csvSchema.withHeader() : csvSchema.withoutHeader();
    StringWriter out = new StringWriter();
    try (SequenceWriter sequence = ((CsvMapper) mapper).writer(csvSchema).writeValues(out)) {
      long row = 1;
      for (Object current = first; current != null; current = rows.hasNext() ? rows.next() : null) {
        sequence.write(cells(current, columns, row++));
      }
    }
    return out.toString();
  }

  private static Iterator<?> rows(Object value) {
    if (value instanceof Iterator<?> iterator) {
      return iterator;
    }
    if (value instanceof Iterable<?> iterable) {
      return iterable.iterator();
    }
    if (value instanceof Object[] array) {
      return Arrays.asList(array).iterator();
    }
    if (value instanceof Map<?, ?> one) {
      return List.of(one).iterator();
    }
    throw FormatException.write(
        Format.CSV,
        "CSV is rows: a list of maps or of lists, not a "
            + (value == null ? "null" : value.getClass().getName()),
        null);
  }

  private static List<Object> cells(Object row, List<String> columns, long number) {
    List<Object> cells = new ArrayList<>();
    if (row instanceof Map<?, ?> map) {
      for (String column : columns) {
        cells.add(cell(map.get(column), number, column));
      }
    } else if (row instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        cells.add(cell(list.get(i), number, "#" + (i + 1)));
      }
    } else {
      throw FormatException.write(
          Format.CSV,
          "row " + number + " is a " + row.getClass().getName() + ", not a map or a list",
          null);
    }
    return cells;
  }

  private static Object cell(Object value, long row, String column) {
    if (value == null || value instanceof CharSequence) {
      return value == null ? "" : value.toString();
    }
    if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
      return value.toString();
    }
    if (value instanceof TemporalAccessor || value instanceof TemporalAmount) {
      return value.toString();
    }
    throw FormatException.write(
        Format.CSV,
        "row "
            + row
            + ", column "
            + column
            + " holds a "
            + value.getClass().getName()
            + ": a CSV cell is a text, number or boolean",
        null);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // the values were read to their end or the write failed: nothing more to learn
    }
  }
}
