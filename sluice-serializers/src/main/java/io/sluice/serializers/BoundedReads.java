package io.sluice.serializers;

import io.sluice.core.serialization.spi.CorruptRecordException;
import java.io.IOException;
import java.io.InputStream;

/** Reads a serialized value whole, refusing one larger than the configured maximum. */
final class BoundedReads {

  private BoundedReads() {}

  /**
   * All of {@code in}, at most {@code maxBytes}; a longer input fails with {@link
   * CorruptRecordException} after reading only {@code maxBytes + 1} bytes.
   */
  static byte[] readAll(InputStream in, long maxBytes, String serializer) throws IOException {
    int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE - 16);
    return check(in.readNBytes(cap + 1), maxBytes, serializer);
  }

  /** {@code bytes}, when they are no more than {@code maxBytes}. */
  static byte[] check(byte[] bytes, long maxBytes, String serializer) {
    if (bytes.length > Math.min(maxBytes, Integer.MAX_VALUE - 16)) {
      throw new CorruptRecordException(
          "The "
              + serializer
              + " value is larger than the maximum of "
              + maxBytes
              + " bytes (serialization max-bytes); raise the maximum if the value is expected");
    }
    return bytes;
  }
}
