package io.sluice.serializers;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;

/** The factory of the {@link Lz4Codec}, named {@code lz4}; found through ServiceLoader. */
public final class Lz4CodecFactory implements CodecFactory {

  /** A factory; ServiceLoader calls this. */
  public Lz4CodecFactory() {}

  @Override
  public int id() {
    return Lz4Codec.ID;
  }

  @Override
  public String name() {
    return "lz4";
  }

  /** The LZ4 codec; LZ4 has no levels here, so any level but null is refused. */
  @Override
  public Codec create(Integer level) {
    if (level != null) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "serialization.codec-level", level, "lz4 has no levels: leave the level unset"));
    }
    return new Lz4Codec();
  }
}
