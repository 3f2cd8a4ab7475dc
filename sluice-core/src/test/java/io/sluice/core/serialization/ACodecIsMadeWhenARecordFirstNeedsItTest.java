package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.core.serialization.spi.SerializationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A codec whose factory knows its id (LZ4 and ZSTD, which load native libraries) is made when a
 * record first needs it; one a configuration chooses is made at start, so a broken one fails the
 * start and not its first record.
 */
class ACodecIsMadeWhenARecordFirstNeedsItTest {

  /** A codec (id 77) that reverses the bytes; its factory counts what it made, or fails. */
  static final class ReversingFactory implements CodecFactory {
    final AtomicInteger made = new AtomicInteger();
    final AtomicInteger tried = new AtomicInteger();
    final boolean broken;

    ReversingFactory(boolean broken) {
      this.broken = broken;
    }

    @Override
    public String name() {
      return "reverse";
    }

    @Override
    public int id() {
      return 77;
    }

    @Override
    public Codec create(Integer level) {
      tried.incrementAndGet();
      if (broken) {
        throw new UnsatisfiedLinkError("no libreverse in java.library.path");
      }
      made.incrementAndGet();
      return new Codec() {
        @Override
        public String name() {
          return "reverse";
        }

        @Override
        public int id() {
          return 77;
        }

        @Override
        public byte[] encode(byte[] data) {
          byte[] out = new byte[data.length];
          for (int i = 0; i < data.length; i++) {
            out[i] = data[data.length - 1 - i];
          }
          return out;
        }

        @Override
        public byte[] decode(byte[] encoded, int originalLength) {
          return encode(encoded);
        }
      };
    }
  }

  @Test
  void anUnusedCodecIsNotMadeAndOneARecordNeedsIsMadeOnce() {
    ReversingFactory factory = new ReversingFactory(false);
    StoredValues stored =
        StoredValues.builder(SerializationConfig.defaults()).codec(factory).build();
    assertThat(factory.made).hasValue(0);
    assertThat(stored.describe()).contains("reverse (77)");

    byte[] first = stored.write("hello", "jdk", "reverse");
    byte[] second = stored.write("again", "jdk", "reverse");
    assertThat(stored.read(first)).isEqualTo("hello");
    assertThat(stored.read(second)).isEqualTo("again");
    assertThat(factory.made).hasValue(1);
  }

  @Test
  void aChosenCodecThatCannotBeMadeFailsTheStartNamingWhy() {
    SerializationConfig config = SerializationConfig.builder().codec("reverse").build();
    assertThatThrownBy(() -> StoredValues.builder(config).codec(new ReversingFactory(true)).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'reverse' is an installed codec that could not be made")
        .hasMessageContaining("no libreverse in java.library.path");
  }

  @Test
  void anUnusedCodecThatCannotBeMadeFailsOnlyTheRecordThatNeedsIt() {
    byte[] written =
        StoredValues.builder(SerializationConfig.defaults())
            .codec(new ReversingFactory(false))
            .build()
            .write("kept", "jdk", "reverse");
    ReversingFactory factory = new ReversingFactory(true);
    StoredValues broken =
        StoredValues.builder(SerializationConfig.defaults()).codec(factory).build();

    assertThat(broken.read(broken.write("plain"))).isEqualTo("plain");
    for (int record = 0; record < 3; record++) {
      assertThatThrownBy(() -> broken.read(written))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("codec 'reverse' (id 77) could not be made")
          .hasMessageContaining("no libreverse");
    }
    assertThat(factory.tried).as("tried once, not at every record").hasValue(1);
  }
}
