package io.sluice.serializers;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CorruptRecordException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The LZ4 block codec (id 3, name {@code lz4}): the fastest compressor lz4-java offers, and always
 * the bounds-checking decompressor, since stored bytes are not trusted. A block carries no length;
 * the record header's {@code originalLength} says how much to allocate, and anything that does not
 * decode to exactly that many bytes is corrupt.
 */
public final class Lz4Codec implements Codec {

  /** The id stored in record headers. */
  public static final int ID = 3;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.safeInstance().safeDecompressor();

  /** The LZ4 codec; it has no levels. */
  public Lz4Codec() {}

  @Override
  public String name() {
    return "lz4";
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public byte[] encode(byte[] data) {
    return COMPRESSOR.compress(data);
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    if (originalLength < 0) {
      throw new CorruptRecordException("LZ4: negative original length " + originalLength);
    }
    byte[] restored = new byte[originalLength];
    int length;
    try {
      length = DECOMPRESSOR.decompress(encoded, 0, encoded.length, restored, 0, originalLength);
    } catch (LZ4Exception | ArrayIndexOutOfBoundsException e) {
      throw new CorruptRecordException(
          "LZ4 could not decode " + encoded.length + " bytes: " + e.getMessage(), e);
    }
    if (length != originalLength) {
      throw new CorruptRecordException(
          "LZ4 decoded " + length + " bytes where the header says " + originalLength);
    }
    return restored;
  }
}
