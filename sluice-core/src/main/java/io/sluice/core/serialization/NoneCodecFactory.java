package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.CorruptRecordException;

/**
 * The factory of the {@code none} codec (id 0), which stores serialized bytes as they are. It takes
 * no level. Registered with {@link java.util.ServiceLoader} by sluice-core.
 */
public final class NoneCodecFactory implements CodecFactory {

  /** The name used in configuration. */
  public static final String NAME = "none";

  private static final Codec NONE = new NoneCodec();

  /** A factory; {@link java.util.ServiceLoader} calls this. */
  public NoneCodecFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Codec create(Integer level) {
    if (level != null) {
      throw new ConfigurationException(
          ConfigProblem.of("serialization.level", level, "is not taken by codec 'none'"));
    }
    return NONE;
  }

  private static final class NoneCodec implements Codec {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public int id() {
      return 0;
    }

    @Override
    public byte[] encode(byte[] data) {
      return data;
    }

    @Override
    public byte[] decode(byte[] encoded, int originalLength) {
      if (encoded.length != originalLength) {
        throw new CorruptRecordException(
            "Codec 'none' holds "
                + encoded.length
                + " bytes, but the header declares "
                + originalLength);
      }
      return encoded;
    }
  }
}
