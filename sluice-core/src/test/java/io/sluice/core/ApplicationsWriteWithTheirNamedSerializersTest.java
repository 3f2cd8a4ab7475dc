package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ApplicationsWriteWithTheirNamedSerializersTest {

  private static SerializationConfig twoNamed() {
    return SerializationConfig.builder()
        .defaultName("compact")
        .serializer("compact", "jdk", "gzip", 9)
        .serializer("plain", "jdk", "none", null)
        .build();
  }

  @Test
  void withoutSerializationTheBuiltInDefaultIsDetectedFromTheCore() {
    StoredValues stored = Application.builder().build().storedValues();
    assertThat(stored.name()).isEqualTo("default");
    assertThat(stored.detected()).isTrue();
    assertThat(stored.defaultSerializer().name()).isEqualTo("jdk");
    assertThat(stored.defaultCodec().name()).isEqualTo("none");
    assertThat(stored.describe())
        .startsWith("serialization: default 'default' = jdk + none (detected:")
        .contains("with it, fory + none");
  }

  @Test
  void theDefaultNamedSerializerWritesAndEveryViewReadsWhatAnotherWrote() {
    StoredValues stored = Application.builder().serialization(twoNamed()).build().storedValues();
    assertThat(stored.name()).isEqualTo("compact");
    assertThat(stored.names()).containsExactlyInAnyOrder("default", "compact", "plain");

    byte[] compact = stored.write(List.of("a".repeat(1000)));
    assertThat(stored.peek(compact).codecId()).isEqualTo(2);
    byte[] plain = stored.named("plain").write(List.of("b"));
    assertThat(stored.peek(plain).codecId()).isZero();

    assertThat(stored.read(plain)).isEqualTo(List.of("b"));
    assertThat(stored.named("plain").read(compact)).isEqualTo(List.of("a".repeat(1000)));
    assertThat(stored.named("default").read(compact)).isEqualTo(List.of("a".repeat(1000)));
  }

  @Test
  void anUndefinedNameIsAConfigurationErrorNamingTheDefinedOnes() {
    StoredValues stored = Application.builder().serialization(twoNamed()).build().storedValues();
    assertThatThrownBy(() -> stored.named("fast"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("value 'fast' is not a named serializer")
        .hasMessageContaining("[compact, default, plain]");
  }

  @Test
  void unknownKindsAndCodecsAndBadLevelsFailTheBuildTogether() {
    SerializationConfig config =
        SerializationConfig.builder()
            .serializer("fast", "kryo", "zstd", 3)
            .serializer("odd", "jdk", "brotli", null)
            .serializer("tight", "jdk", "deflate", 12)
            .build();
    assertThatThrownBy(() -> Application.builder().serialization(config).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("4 errors")
        .hasMessageContaining(
            "serialization.serializers.fast.type: value 'kryo' is not an installed serializer;"
                + " installed: [jdk (1)]. kryo and fory come with sluice-serializers: add it")
        .hasMessageContaining(
            "serialization.serializers.fast.codec: value 'zstd' is not an installed codec;"
                + " installed: [deflate (1), gzip (2), none (0)]. lz4 and zstd come with"
                + " sluice-serializers")
        .hasMessageContaining("serialization.serializers.odd.codec: value 'brotli'")
        .hasMessageContaining(
            "serialization.serializers.tight.level: value '12' is not a level of codec 'deflate'");
  }

  @Test
  void theConfigurationReportsEveryBrokenRuleAtOnce() {
    assertThatThrownBy(
            () ->
                SerializationConfig.builder()
                    .defaultName("fast")
                    .serializer("compact", "jdk", "gzip", null)
                    .serializer("compact", "jdk", "none", null)
                    .serializer("no name", "jdk", "none", null)
                    .serializer("blank", " ", null, null)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("5 errors")
        .hasMessageContaining("serialization.serializers.compact: value 'compact' is defined twice")
        .hasMessageContaining("serialization.serializers: value 'no name' is not a serializer name")
        .hasMessageContaining("serialization.serializers.blank.type")
        .hasMessageContaining("serialization.serializers.blank.codec")
        .hasMessageContaining(
            "serialization.default: value 'fast' is not a defined serializer; defined: [compact,"
                + " blank]");
  }

  @Test
  void startLogsTheEffectiveConfigurationOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(Application.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (Application app =
        Application.builder()
            .serialization(
                SerializationConfig.builder()
                    .defaultName("compact")
                    .serializer("compact", "jdk", "gzip", 9)
                    .allow("com.acme.*")
                    .build())
            .build()) {
      app.start();
    } finally {
      logger.detachAppender(appender);
    }
    List<String> lines =
        appender.list.stream()
            .map(ILoggingEvent::getFormattedMessage)
            .filter(m -> m.startsWith("serialization:"))
            .toList();
    assertThat(lines).hasSize(1);
    assertThat(lines.getFirst())
        .startsWith("serialization: default 'compact' = jdk + gzip level 9, named [")
        .contains("default = jdk + none")
        .contains("maxSize 67108864 bytes")
        .contains("allow [com.acme.*]");
  }
}
