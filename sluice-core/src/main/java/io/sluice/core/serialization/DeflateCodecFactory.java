package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;

/**
 * The factory of the {@code deflate} codec (id 1): zlib streams (RFC 1950, with their Adler-32)
 * made by the JDK's {@link java.util.zip.Deflater}. Levels 0 (stored) to 9 (smallest); the default
 * is 6, zlib's own balance of speed and size (choose lz4 or zstd for speed). Registered with {@link
 * java.util.ServiceLoader} by sluice-core.
 */
public final class DeflateCodecFactory implements CodecFactory {

  /** The name used in configuration. */
  public static final String NAME = "deflate";

  /** The level used when none is configured. */
  public static final int DEFAULT_LEVEL = 6;

  /** A factory; {@link java.util.ServiceLoader} calls this. */
  public DeflateCodecFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Codec create(Integer level) {
    return new DeflateCodec(CodecLevels.check(NAME, level, 0, 9, DEFAULT_LEVEL));
  }
}
