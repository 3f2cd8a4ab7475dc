package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class StoredValuesRoundTripEveryValueTest {

  static List<Arguments> valuesByCodec() {
    List<Arguments> cases = new ArrayList<>();
    for (String codec : List.of("none", "deflate", "gzip")) {
      for (Object value : Fixtures.values()) {
        cases.add(Arguments.of(codec, value));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "jdk + {0}: {1}")
  @MethodSource("valuesByCodec")
  void aValueReadBackEqualsTheValueWritten(String codec, Object value) {
    StoredValues stored = Fixtures.storedValues("jdk", codec);
    byte[] record = stored.write(value);
    assertThat(stored.read(record)).isEqualTo(value);
    assertThat(stored.read(record, getClass().getClassLoader())).isEqualTo(value);
    RecordHeader header = stored.peek(record);
    assertThat(header.serializerId()).isEqualTo(1);
    assertThat(header.formatVersion()).isEqualTo(1);
    assertThat(header.codecId()).isEqualTo(stored.defaultCodec().id());
    assertThat(header.encodedLength()).isEqualTo(record.length - RecordHeader.SIZE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "deflate", "gzip"})
  void nullIsStoredAndReadBack(String codec) {
    StoredValues stored = Fixtures.storedValues("jdk", codec);
    assertThat(stored.read(stored.write(null))).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"deflate", "gzip"})
  void compressingCodecsMakeRepetitiveValuesSmaller(String codec) {
    String value = "sluice ".repeat(1000);
    byte[] plain = Fixtures.storedValues("jdk", "none").write(value);
    byte[] compressed = Fixtures.storedValues("jdk", codec).write(value);
    assertThat(compressed.length).isLessThan(plain.length / 10);
  }
}
