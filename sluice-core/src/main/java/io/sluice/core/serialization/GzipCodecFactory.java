package io.sluice.core.serialization;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;

/**
 * The factory of the {@code gzip} codec (id 2): GZIP members (RFC 1952, with their CRC-32) made by
 * the JDK's {@link java.util.zip.GZIPOutputStream}. Levels 0 to 9, default 6 as for {@code
 * deflate}. Registered with {@link java.util.ServiceLoader} by sluice-core.
 */
public final class GzipCodecFactory implements CodecFactory {

  /** The name used in configuration. */
  public static final String NAME = "gzip";

  /** The level used when none is configured. */
  public static final int DEFAULT_LEVEL = 6;

  /** A factory; {@link java.util.ServiceLoader} calls this. */
  public GzipCodecFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Codec create(Integer level) {
    return new GzipCodec(CodecLevels.check(NAME, level, 0, 9, DEFAULT_LEVEL));
  }
}
