package io.sluice.serializers;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.CorruptRecordException;
import io.sluice.core.spi.Codec;

/**
 * The Zstandard codec (id 4, name {@code zstd}) through zstd-jni, at a level fixed when it is made
 * (default {@value #DEFAULT_LEVEL}). Decoding allocates exactly the record header's {@code
 * originalLength}; anything that does not decode to exactly that is corrupt. The native calls pin a
 * virtual thread's carrier only for the time one record takes to compress.
 */
public final class ZstdCodec implements Codec {

  /** The id stored in record headers. */
  public static final int ID = 4;

  /** The level used when none is configured. */
  public static final int DEFAULT_LEVEL = 1;

  private final int level;

  /** A Zstd codec at {@code level}; a level outside Zstd's range is a configuration error. */
  public ZstdCodec(int level) {
    int min = Zstd.minCompressionLevel();
    int max = Zstd.maxCompressionLevel();
    if (level < min || level > max) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "serialization.codec-level",
              level,
              "zstd level " + level + " is outside " + min + ".." + max));
    }
    this.level = level;
  }

  /** The compression level. */
  public int level() {
    return level;
  }

  @Override
  public String name() {
    return "zstd";
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public byte[] encode(byte[] data) {
    return Zstd.compress(data, level);
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    if (originalLength < 0) {
      throw new CorruptRecordException("Zstd: negative original length " + originalLength);
    }
    byte[] restored = new byte[originalLength];
    long length;
    try {
      length = Zstd.decompress(restored, encoded);
    } catch (ZstdException e) {
      throw new CorruptRecordException(
          "Zstd could not decode " + encoded.length + " bytes: " + e.getMessage(), e);
    }
    if (Zstd.isError(length)) {
      throw new CorruptRecordException(
          "Zstd could not decode " + encoded.length + " bytes: " + Zstd.getErrorName(length));
    }
    if (length != originalLength) {
      throw new CorruptRecordException(
          "Zstd decoded " + length + " bytes where the header says " + originalLength);
    }
    return restored;
  }

  @Override
  public String toString() {
    return "ZstdCodec[level=" + level + "]";
  }
}
