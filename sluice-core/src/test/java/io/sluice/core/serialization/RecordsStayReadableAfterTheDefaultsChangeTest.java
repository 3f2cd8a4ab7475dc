package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecordsStayReadableAfterTheDefaultsChangeTest {

  private static final List<String> SERIALIZERS = List.of("jdk", "utf8");
  private static final List<String> CODECS = List.of("none", "deflate", "gzip");

  static List<Arguments> pairsOfDefaults() {
    List<Arguments> pairs = new ArrayList<>();
    for (String writtenWith : SERIALIZERS) {
      for (String writtenBy : CODECS) {
        for (String nowWith : SERIALIZERS) {
          for (String nowBy : CODECS) {
            pairs.add(Arguments.of(writtenWith, writtenBy, nowWith, nowBy));
          }
        }
      }
    }
    return pairs;
  }

  @ParameterizedTest(name = "written {0}+{1}, read with defaults {2}+{3}")
  @MethodSource("pairsOfDefaults")
  void aRecordIsReadWithTheSerializerAndCodecItWasWrittenWith(
      String writtenWith, String writtenBy, String nowWith, String nowBy) {
    String value = "Ünïcødé value ".repeat(20);
    byte[] record = Fixtures.storedValues(writtenWith, writtenBy).write(value);
    StoredValues now = Fixtures.storedValues(nowWith, nowBy);
    assertThat(now.read(record)).isEqualTo(value);
  }

  @Test
  void aStoreThatChoseItsOwnFormatWritesWithItAndReadsEverything() {
    StoredValues application = Fixtures.storedValues("jdk", "none");
    StoredValues store = application.using("utf8", "gzip");
    byte[] record = store.write("hello");
    assertThat(store.peek(record).serializerId()).isEqualTo(200);
    assertThat(store.peek(record).codecId()).isEqualTo(2);
    assertThat(application.read(record)).isEqualTo("hello");
    assertThat(store.read(application.write("world"))).isEqualTo("world");
    byte[] named = application.write("named", "jdk", "deflate");
    assertThat(application.peek(named).codecId()).isEqualTo(1);
    assertThat(store.read(named)).isEqualTo("named");
  }
}
