package io.sluice.formats.internal;

import com.fasterxml.jackson.core.JsonParser;
import io.sluice.formats.Format;
import io.sluice.formats.StreamedValues;
import java.io.IOException;
import java.util.NoSuchElementException;

/** Values parsed one at a time from an open parser, which is closed at the end or on failure. */
final class ParsedValues implements StreamedValues {

  /** What {@link Next} returns at the end. */
  static final Object END = new Object();

  private static final Object NULL = new Object();

  /** The next value, or {@link #END}. */
  @FunctionalInterface
  interface Next {
    Object next() throws IOException;
  }

  private final Format format;
  private final JsonParser parser;
  private final Object input;
  private final Next source;
  private Object pending;
  private boolean done;

  ParsedValues(Format format, JsonParser parser, Object input, Next source) {
    this.format = format;
    this.parser = parser;
    this.input = input;
    this.source = source;
  }

  @Override
  public boolean hasNext() {
    if (done) {
      return false;
    }
    if (pending != null) {
      return true;
    }
    Object value;
    try {
      value = source.next();
    } catch (IOException | RuntimeException e) {
      close();
      throw ParseErrors.of(format, e, parser);
    }
    if (value == END) {
      close();
      return false;
    }
    pending = value == null ? NULL : value;
    return true;
  }

  @Override
  public Object next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no more " + format + " values");
    }
    Object value = pending;
    pending = null;
    return value == NULL ? null : value;
  }

  @Override
  public void close() {
    if (!done) {
      done = true;
      pending = null;
      DocumentReader.closeQuietly(parser, input);
    }
  }

  @Override
  public String toString() {
    return "streamed " + format + " values" + (done ? " (closed)" : "");
  }
}
