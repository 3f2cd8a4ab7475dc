package io.sluice.formats.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.MappingIterator;
import io.sluice.core.SluiceException;
import io.sluice.core.io.BoundedInputStream;
import io.sluice.formats.Format;
import io.sluice.formats.FormatException;
import io.sluice.formats.ReadConfig;
import io.sluice.formats.StreamedValues;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads payloads (a String, bytes, an InputStream or a file's Path) into plain Java values, whole
 * or streamed, within the limits of a {@link ReadConfig}. Thread-safe.
 */
public final class DocumentReader {

  private final ReadConfig config;
  private final Parsers parsers;

  /** A reader with the limits and CSV settings of {@code config}. */
  public DocumentReader(ReadConfig config) {
    this.config = config;
    this.parsers = new Parsers(config);
  }

  /** The whole document {@code payload} holds: a map, a list (CSV: of rows) or a scalar. */
  public Object read(Object payload, Format format) {
    Object input = open(payload, format, true);
    JsonParser parser = null;
    try {
      parser = parsers.parser(format, input);
      if (keyedRows(format)) {
        List<Object> rows = new ArrayList<>();
        try (MappingIterator<Object> it = parsers.elementReader(format).readValues(parser)) {
          while (it.hasNextValue()) {
            rows.add(it.nextValue());
          }
        }
        return rows;
      }
      // the mappers fail on trailing tokens: one document, nothing after it
      return parsers.wholeReader(format).readValue(parser);
    } catch (IOException | RuntimeException e) {
      throw ParseErrors.of(format, e, parser);
    } finally {
      closeQuietly(parser, input);
    }
  }

  /**
   * The elements of the top-level JSON array or the CSV rows {@code payload} holds, parsed while
   * they are iterated.
   */
  public StreamedValues stream(Object payload, Format format) {
    if (format != Format.JSON && format != Format.CSV) {
      throw FormatException.parse(
          format,
          "streaming reads JSON (a top-level array) and CSV; read " + format + " whole",
          0,
          0,
          null);
    }
    Object input = open(payload, format, false);
    JsonParser parser = null;
    try {
      parser = parsers.parser(format, input);
      if (keyedRows(format)) {
        MappingIterator<Object> rows = parsers.elementReader(format).readValues(parser);
        return new ParsedValues(
            format, parser, input, () -> rows.hasNextValue() ? rows.nextValue() : ParsedValues.END);
      }
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_ARRAY) {
        throw FormatException.parse(
            format,
            "a streaming read needs a top-level array, not " + (first == null ? "nothing" : first),
            parser.currentLocation().getLineNr(),
            parser.currentLocation().getColumnNr(),
            null);
      }
      JsonParser elements = parser;
      var reader = parsers.elementReader(format);
      return new ParsedValues(
          format,
          parser,
          input,
          () -> {
            JsonToken token = elements.nextToken();
            if (token == JsonToken.END_ARRAY) {
              // As a whole read refuses it: nothing may follow the array ([1][2], [1] garbage).
              if (elements.nextToken() != null) {
                throw FormatException.parse(
                    format,
                    "content follows the top-level array",
                    elements.currentLocation().getLineNr(),
                    elements.currentLocation().getColumnNr(),
                    null);
              }
              return ParsedValues.END;
            }
            if (token == null) {
              throw FormatException.parse(
                  format,
                  "the document ended inside the array",
                  elements.currentLocation().getLineNr(),
                  elements.currentLocation().getColumnNr(),
                  null);
            }
            return reader.readValue(elements);
          });
    } catch (IOException | RuntimeException e) {
      closeQuietly(parser, input);
      throw ParseErrors.of(format, e, parser);
    }
  }

  /**
   * Whether the document is a sequence of rows keyed by a header (CSV with one); else it is one
   * value (CSV without a header: an array of rows, as Jackson wraps them).
   */
  private boolean keyedRows(Format format) {
    return format == Format.CSV && config.header();
  }

  /** The payload as a String, bytes or an InputStream, bounded by maxSize when read whole. */
  private Object open(Object payload, Format format, boolean whole) {
    long max = config.maxSize();
    if (payload instanceof CharSequence text) {
      if (whole && text.length() > max) {
        throw tooLarge(format, text.length() + " characters");
      }
      return text.toString();
    }
    if (payload instanceof byte[] bytes) {
      if (whole && bytes.length > max) {
        throw tooLarge(format, bytes.length + " bytes");
      }
      return bytes;
    }
    InputStream stream;
    if (payload instanceof InputStream in) {
      stream = in;
    } else if (payload instanceof Path path) {
      try {
        stream = Files.newInputStream(path);
      } catch (IOException e) {
        throw new SluiceException("Cannot open '" + path + "' to read it: " + e, e);
      }
    } else {
      throw FormatException.parse(
          format,
          payload == null
              ? "the payload is empty (null)"
              : "the payload is a "
                  + payload.getClass().getName()
                  + ", not text, bytes, a stream or a file's Path",
          0,
          0,
          null);
    }
    return whole ? new BoundedInputStream(stream, max, TooLarge::new) : stream;
  }

  private FormatException tooLarge(Format format, String size) {
    return FormatException.parse(
        format, "it is " + size + ", more than maxSize (" + config.maxSize() + ")", 0, 0, null);
  }

  static void closeQuietly(JsonParser parser, Object input) {
    try {
      if (parser != null) {
        parser.close();
      }
    } catch (IOException | RuntimeException ignored) {
      // the document failed or ended: what matters is already known
    }
    if (input instanceof InputStream stream) {
      try {
        stream.close();
      } catch (IOException | RuntimeException ignored) {
        // as above
      }
    }
  }
}
