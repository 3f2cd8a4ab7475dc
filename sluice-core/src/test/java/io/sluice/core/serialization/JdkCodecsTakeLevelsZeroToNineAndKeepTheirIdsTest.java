package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What only the JDK codecs do; their contract runs in sluice-testkit. */
class JdkCodecsTakeLevelsZeroToNineAndKeepTheirIdsTest {

  private static Codec codec(String name, Integer level) {
    List<CodecFactory> factories =
        List.of(new NoneCodecFactory(), new DeflateCodecFactory(), new GzipCodecFactory());
    return factories.stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow()
        .create(level);
  }

  @ParameterizedTest
  @ValueSource(strings = {"deflate", "gzip"})
  void everyLevelFromZeroToNineWorks(String name) {
    byte[] input = "level ".repeat(1000).getBytes(StandardCharsets.UTF_8);
    for (int level = 0; level <= 9; level++) {
      Codec codec = codec(name, level);
      assertThat(codec.decode(codec.encode(input), input.length)).isEqualTo(input);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"deflate", "gzip"})
  void aLevelOutsideTheRangeIsAConfigurationErrorNamingTheRange(String name) {
    assertThatThrownBy(() -> codec(name, 10))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("value '10'")
        .hasMessageContaining("codec '" + name + "': it takes 0 to 9");
  }

  @Test
  void noneTakesNoLevel() {
    assertThatThrownBy(() -> codec("none", 1))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("is not taken by codec 'none'");
  }

  @Test
  void theIdsAreTheOnesStoredInHeaders() {
    assertThat(codec("none", null).id()).isZero();
    assertThat(codec("deflate", null).id()).isEqualTo(1);
    assertThat(codec("gzip", null).id()).isEqualTo(2);
  }
}
