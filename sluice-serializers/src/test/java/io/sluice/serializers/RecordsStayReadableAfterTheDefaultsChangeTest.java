package io.sluice.serializers;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.serialization.RecordHeader;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.testkit.fixtures.ValueShapes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Data written before the default serializer or codec changed stays readable, for every pair: each
 * of the 15 (serializer, codec) defaults writes records that a StoredValues whose default is any
 * other of the 15 reads back equal. Only here are every serializer and codec on the class path.
 */
class RecordsStayReadableAfterTheDefaultsChangeTest {

  private static final List<String> SERIALIZERS = List.of("jdk", "kryo", "fory");
  private static final List<String> CODECS = List.of("none", "deflate", "gzip", "lz4", "zstd");

  /** One StoredValues per default pair, keyed "serializer+codec". */
  private static final Map<String, StoredValues> BY_DEFAULTS = new LinkedHashMap<>();

  static {
    for (String serializer : SERIALIZERS) {
      for (String codec : CODECS) {
        BY_DEFAULTS.put(
            serializer + "+" + codec,
            StoredValues.create(
                SerializationConfig.builder().serializer(serializer).codec(codec).build()));
      }
    }
  }

  static List<Arguments> writersAndOtherReaders() {
    List<Arguments> pairs = new ArrayList<>();
    for (String writer : BY_DEFAULTS.keySet()) {
      for (String reader : BY_DEFAULTS.keySet()) {
        if (!reader.equals(writer)) {
          pairs.add(Arguments.of(writer, reader));
        }
      }
    }
    return pairs;
  }

  @ParameterizedTest(name = "written with defaults {0}, read with defaults {1}")
  @MethodSource("writersAndOtherReaders")
  void aRecordIsReadWithTheSerializerAndCodecItWasWrittenWith(String writer, String reader) {
    StoredValues before = BY_DEFAULTS.get(writer);
    StoredValues now = BY_DEFAULTS.get(reader);
    List<Object> values = new ArrayList<>(ValueShapes.representative());
    values.add(null);
    for (Object value : values) {
      byte[] record = before.write(value);
      RecordHeader header = now.peek(record);

      assertThat(header.serializerId()).isEqualTo(before.defaultSerializer().id());
      assertThat(header.codecId()).isEqualTo(before.defaultCodec().id());
      assertThat(now.read(record)).as("%s", value).isEqualTo(value);
    }
  }
}
