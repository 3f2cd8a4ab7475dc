package io.sluice.core.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigurationException;
import io.sluice.core.serialization.spi.ClassNotAllowedException;
import io.sluice.core.serialization.spi.SerializationException;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoredValuesConfigurationIsCheckedAtOnceTest {

  @Test
  void theDefaultsAreJdkWithoutCompressionAndDiscoverTheCoreFactories() {
    StoredValues stored = StoredValues.create(SerializationConfig.defaults());
    assertThat(stored.defaultSerializer().name()).isEqualTo("jdk");
    assertThat(stored.defaultCodec().name()).isEqualTo("none");
    assertThat(stored.describe())
        .contains("serializers [jdk (1)]")
        .contains("codecs [deflate (1), gzip (2), none (0)]")
        .contains("maxSize 67108864");
  }

  @Test
  void unknownNamesAreReportedTogetherWithWhatIsInstalledAndWhereToGetIt() {
    SerializationConfig config =
        SerializationConfig.builder().serializer("kryo").codec("zstd", 3).build();
    assertThatThrownBy(() -> StoredValues.create(config))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("2 errors")
        .hasMessageContaining(
            "serialization.serializer: value 'kryo' is not an installed serializer;"
                + " installed: [jdk (1)]. kryo and fory come with sluice-serializers")
        .hasMessageContaining("serialization.codec: value 'zstd' is not an installed codec");
  }

  @Test
  void aStoreChoosingAnUnknownFormatIsAConfigurationError() {
    StoredValues stored = StoredValues.create(SerializationConfig.defaults());
    assertThatThrownBy(() -> stored.using("fory", "brotli"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'fory'")
        .hasMessageContaining("'brotli'");
    assertThatThrownBy(() -> stored.write("x", "jdk", "lz4"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("lz4 and zstd come with sluice-serializers");
  }

  @Test
  void theBuilderReportsEveryBrokenRule() {
    assertThatThrownBy(
            () ->
                SerializationConfig.builder()
                    .serializer(" ")
                    .maxSize(0)
                    .maxDepth(-1)
                    .allow("com.acme.*", "*")
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("4 errors")
        .hasMessageContaining("serialization.serializer")
        .hasMessageContaining("serialization.maxSize: value '0'")
        .hasMessageContaining("serialization.maxDepth: value '-1'")
        .hasMessageContaining("serialization.allow[1]");
  }

  @Test
  void aBadDefaultCodecLevelIsAConfigurationError() {
    SerializationConfig config = SerializationConfig.builder().codec("deflate", 12).build();
    assertThatThrownBy(() -> StoredValues.create(config))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("serialization.level: value '12'");
  }

  @Test
  void aSerializerIdTakenTwiceIsAConfigurationError() {
    Fixtures.Utf8Factory clash =
        new Fixtures.Utf8Factory() {
          @Override
          public String name() {
            return "other";
          }
        };
    assertThatThrownBy(
            () ->
                StoredValues.builder(SerializationConfig.defaults())
                    .serializer(new Fixtures.Utf8Factory())
                    .serializer(clash)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("has serializer id 200, already the id of");
  }

  @Test
  void theAllowListReachesTheSerializers() {
    StoredValues strict = StoredValues.create(SerializationConfig.defaults());
    StoredValues allowing =
        StoredValues.create(SerializationConfig.builder().allow(List.of("com.acme.*")).build());
    byte[] record = allowing.write(new com.acme.Order("o", java.math.BigDecimal.ONE, List.of()));
    assertThat(allowing.read(record)).isInstanceOf(com.acme.Order.class);
    assertThatThrownBy(() -> strict.read(record))
        .isExactlyInstanceOf(ClassNotAllowedException.class)
        .hasMessageContaining("serialization.allow: [com.acme.*]");
  }

  @Test
  void aValueLargerThanMaxSizeIsRefusedWhenWritten() {
    StoredValues small = StoredValues.create(SerializationConfig.builder().maxSize(100).build());
    assertThatThrownBy(() -> small.write("x".repeat(200)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("more than serialization.maxSize 100");
  }
}
