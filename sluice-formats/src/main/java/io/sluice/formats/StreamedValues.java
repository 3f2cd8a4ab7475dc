package io.sluice.formats;

import java.util.Iterator;

/**
 * The payload of a streaming {@code read}: the elements of a top-level JSON array, or the rows of a
 * CSV document, parsed one at a time while the input is read, so that a document of any length is
 * iterated in constant memory. It can be iterated once. It closes its input when it reaches the
 * end, when reading fails (then {@link #next()} or {@link #hasNext()} throws a {@link
 * FormatException}) and when {@link #close()} is called; whoever stops iterating early must close
 * it (the {@code foreach} router does).
 */
public interface StreamedValues extends Iterator<Object>, AutoCloseable {

  /** Closes the input; iterating afterwards finds no more values. Closing twice does nothing. */
  @Override
  void close();
}
