package io.sluice.core.router;

import java.lang.reflect.Array;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.BaseStream;

/**
 * What a {@code foreach} goes over, as an iterator: a collection or any iterable, an iterator, an
 * array (of objects or primitives), a stream, a map's entries; nothing for null, the value itself
 * once for anything else. What it came from is closed at the end when it can be (a stream, a
 * streaming reader's iterator).
 */
final class Iteration {

  private Iteration() {}

  static Iterator<?> of(Object value) {
    return switch (value) {
      case null -> Collections.emptyIterator();
      case Iterator<?> iterator -> iterator;
      case Iterable<?> iterable -> iterable.iterator();
      case BaseStream<?, ?> stream -> stream.iterator();
      case Map<?, ?> map -> map.entrySet().iterator();
      case Object[] array -> List.of(array).iterator();
      default -> value.getClass().isArray() ? primitives(value) : List.of(value).iterator();
    };
  }

  /** Closes what {@code value} holds open, if anything; a failure to close is not the loop's. */
  static void close(Object value) {
    if (value instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // Nothing more can be read from it either way.
      }
    }
  }

  private static Iterator<Object> primitives(Object array) {
    int length = Array.getLength(array);
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < length;
      }

      @Override
      public Object next() {
        if (next >= length) {
          throw new NoSuchElementException();
        }
        return Array.get(array, next++);
      }
    };
  }
}
