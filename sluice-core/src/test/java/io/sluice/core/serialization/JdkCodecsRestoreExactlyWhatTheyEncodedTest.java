package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.core.ConfigurationException;
import io.sluice.core.spi.Codec;
import io.sluice.core.spi.CodecFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JdkCodecsRestoreExactlyWhatTheyEncodedTest {

  private static Codec codec(String name, Integer level) {
    List<CodecFactory> factories =
        List.of(new NoneCodecFactory(), new DeflateCodecFactory(), new GzipCodecFactory());
    return factories.stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow()
        .create(level);
  }

  private static List<byte[]> inputs() {
    byte[] random = new byte[100_000];
    new Random(42).nextBytes(random);
    return List.of(
        new byte[0],
        new byte[] {7},
        "sluice ".repeat(5000).getBytes(StandardCharsets.UTF_8),
        random);
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void decodingGivesBackTheBytesEncoded(String name) {
    Codec codec = codec(name, null);
    for (byte[] input : inputs()) {
      assertThat(codec.decode(codec.encode(input), input.length)).isEqualTo(input);
    }
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

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void everyTruncationIsACorruptRecord(String name) {
    Codec codec = codec(name, null);
    byte[] input = "truncate me ".repeat(20).getBytes(StandardCharsets.UTF_8);
    byte[] encoded = codec.encode(input);
    for (int length = 0; length < encoded.length; length++) {
      byte[] prefix = Arrays.copyOf(encoded, length);
      assertThat(catchThrowable(() -> codec.decode(prefix, input.length)))
          .as("%s prefix of %d bytes", name, length)
          .isExactlyInstanceOf(CorruptRecordException.class);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void aDeclaredLengthThatDoesNotMatchIsACorruptRecord(String name) {
    Codec codec = codec(name, null);
    byte[] input = "length ".repeat(20).getBytes(StandardCharsets.UTF_8);
    byte[] encoded = codec.encode(input);
    assertThatThrownBy(() -> codec.decode(encoded, input.length - 1))
        .isExactlyInstanceOf(CorruptRecordException.class);
    assertThatThrownBy(() -> codec.decode(encoded, input.length + 1))
        .isExactlyInstanceOf(CorruptRecordException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"deflate", "gzip"})
  void garbageIsACorruptRecordNotGarbage(String name) {
    Codec codec = codec(name, null);
    byte[] garbage = new byte[200];
    new Random(7).nextBytes(garbage);
    assertThatThrownBy(() -> codec.decode(garbage, 1000))
        .isExactlyInstanceOf(CorruptRecordException.class)
        .hasMessageContaining(name);
  }

  @Test
  void theIdsAreTheOnesStoredInHeaders() {
    assertThat(codec("none", null).id()).isZero();
    assertThat(codec("deflate", null).id()).isEqualTo(1);
    assertThat(codec("gzip", null).id()).isEqualTo(2);
  }
}
