package io.sluice.serializers;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;

/** The factory of {@link ZstdCodec}s, named {@code zstd}; found through ServiceLoader. */
public final class ZstdCodecFactory implements CodecFactory {

  /** A factory; ServiceLoader calls this. */
  public ZstdCodecFactory() {}

  @Override
  public int id() {
    return ZstdCodec.ID;
  }

  @Override
  public String name() {
    return "zstd";
  }

  @Override
  public Codec create(Integer level) {
    return new ZstdCodec(level == null ? ZstdCodec.DEFAULT_LEVEL : level);
  }
}
