package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.CodecFactory;
import io.sluice.testkit.CodecContractTest;
import org.junit.jupiter.api.Test;

/** The codec contract, run against Lz4, and what only Lz4 does. */
class Lz4CodecTest extends CodecContractTest {

  @Override
  protected CodecFactory factory() {
    return new Lz4CodecFactory();
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
