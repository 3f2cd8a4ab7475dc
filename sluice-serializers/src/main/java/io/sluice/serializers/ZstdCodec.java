package io.sluice.serializers;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CorruptRecordException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The Zstandard codec (id 4, name {@code zstd}) through zstd-jni, at a level fixed when it is made
 * (default {@value #DEFAULT_LEVEL}). Decoding allocates exactly the record header's {@code
 * originalLength}; anything that does not decode to exactly that is corrupt. The native calls pin a
 * virtual thread's carrier only for the time one record takes to compress.
 */
public final class ZstdCodec implements Codec {

  private static final int POOL = 4 * Runtime.getRuntime().availableProcessors();

  /** The id stored in record headers. */
  public static final int ID = 4;

  /** The level used when none is configured. */
  public static final int DEFAULT_LEVEL = 1;

  private final int level;
  // Contexts are costly to make (a fresh one per call made small records 8x slower) and not
  // thread-safe: a small pool, never a ThreadLocal (virtual threads).
  private final BlockingQueue<ZstdCompressCtx> compressors = new ArrayBlockingQueue<>(POOL);
  private final BlockingQueue<ZstdDecompressCtx> decompressors = new ArrayBlockingQueue<>(POOL);

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
    ZstdCompressCtx context = compressors.poll();
    if (context == null) {
      context = new ZstdCompressCtx().setLevel(level);
    }
    try {
      return context.compress(data);
    } finally {
      if (!compressors.offer(context)) {
        context.close();
      }
    }
  }

  @Override
  public byte[] decode(byte[] encoded, int originalLength) {
    if (originalLength < 0) {
      throw new CorruptRecordException("Zstd: negative original length " + originalLength);
    }
    byte[] restored = new byte[originalLength];
    long length;
    ZstdDecompressCtx context = decompressors.poll();
    if (context == null) {
      context = new ZstdDecompressCtx();
    }
    try {
      length = context.decompress(restored, encoded);
    } catch (ZstdException e) {
      throw new CorruptRecordException(
          "Zstd could not decode " + encoded.length + " bytes: " + e.getMessage(), e);
    } finally {
      if (!decompressors.offer(context)) {
        context.close();
      }
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
