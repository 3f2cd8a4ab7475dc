package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.spi.Codec;
import org.junit.jupiter.api.Test;

class Lz4CodecTest extends CodecContractTest {

  @Override
  Codec codec() {
    return new Lz4CodecFactory().create(null);
  }

  @Test
  void itIsIdThreeNamedLz4() {
    assertThat(codec.id()).isEqualTo(3);
    assertThat(codec.name()).isEqualTo("lz4");
  }

  @Test
  void aLevelIsRefusedBecauseLz4HasNone() {
    assertThatThrownBy(() -> new Lz4CodecFactory().create(3))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("lz4");
  }
}
