package io.sluice.core.serialization.spi;

/**
 * A codec compresses serialized bytes and restores them: NONE, DEFLATE, GZIP, LZ4, ZSTD, or a
 * user's. Thread-safe. Its {@link #id()} is stored in every record header, so a record is decoded
 * with the codec it was written with, whatever the default is now.
 */
public interface Codec {

  /**
   * The name used in configuration: {@code none}, {@code deflate}, {@code gzip}, {@code lz4},
   * {@code zstd}.
   */
  String name();

  /**
   * The id stored in record headers, 0 to 255, never reused: 0 none, 1 deflate, 2 gzip, 3 lz4, 4
   * zstd.
   */
  int id();

  /** The encoded form of {@code data}. */
  byte[] encode(byte[] data);

  /**
   * The original bytes, whose length the record header gives ({@code originalLength}, checked
   * against the configured maximum before this is called). Corrupt input fails with {@link
   * io.sluice.core.serialization.spi.CorruptRecordException}, never with garbage.
   */
  byte[] decode(byte[] encoded, int originalLength);
}
