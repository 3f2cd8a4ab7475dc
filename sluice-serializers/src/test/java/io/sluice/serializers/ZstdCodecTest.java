package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.testkit.CodecContractTest;
import org.junit.jupiter.api.Test;

/** The codec contract, run against Zstd, and what only Zstd does. */
class ZstdCodecTest extends CodecContractTest {

  @Override
  protected CodecFactory factory() {
    return new ZstdCodecFactory();
  }

  @Test
  void itIsIdFourNamedZstdAtLevelOneByDefault() {
    assertThat(codec.id()).isEqualTo(4);
    assertThat(codec.name()).isEqualTo("zstd");
    assertThat(((ZstdCodec) codec).level()).isEqualTo(1);
  }

  @Test
  void everyLevelInZstdsRangeIsAccepted() {
    byte[] data = text(10_000);
    for (int level = Zstd.minCompressionLevel(); level <= Zstd.maxCompressionLevel(); level += 7) {
      Codec atLevel = new ZstdCodecFactory().create(level);
      assertThat(atLevel.decode(atLevel.encode(data), data.length)).isEqualTo(data);
    }
  }

  @Test
  void aLevelOutsideTheRangeIsRefusedNamingLevelAndRange() {
    int max = Zstd.maxCompressionLevel();
    int min = Zstd.minCompressionLevel();

    assertThatThrownBy(() -> new ZstdCodecFactory().create(max + 1))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(String.valueOf(max + 1))
        .hasMessageContaining(min + ".." + max);
    assertThatThrownBy(() -> new ZstdCodecFactory().create(min - 1))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(String.valueOf(min - 1));
  }
}
