package io.sluice.serializers;

import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.CorruptRecordException;
import io.sluice.core.serialization.spi.SerializationException;

/**
 * What a failed read becomes: the allow-list's refusal as it is (it names the class and the
 * setting), anything else a {@link CorruptRecordException} naming the serializer and the length.
 */
final class ReadFailures {

  private ReadFailures() {}

  static SerializationException translate(String serializer, Throwable e, int length) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ClassNotAllowedException refused) {
        return refused;
      }
    }
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return new CorruptRecordException(
        serializer
            + " could not read the "
            + length
            + "-byte value: "
            + e.getClass().getSimpleName()
            + ": "
            + (newline < 0 ? message : message.substring(0, newline)),
        e);
  }
}
