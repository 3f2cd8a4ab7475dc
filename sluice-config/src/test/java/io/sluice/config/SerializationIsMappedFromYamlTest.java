package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.config.spi.Sizes;
import io.sluice.core.ConfigProblem;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SerializationIsMappedFromYamlTest {

  private static final String FULL =
      """
      serialization:
        default: compact
        allow: [com.acme.*, com.example.Order]
        maxSize: 2MB
        maxDepth: 50
        serializers:
          compact: { type: jdk, codec: gzip, level: 9 }
          plain:   { type: jdk, codec: none }
          packed:  { type: jdk }
      flows: []
      """;

  @Test
  void everyKeyIsMapped() {
    StoredValues stored = Configs.build(FULL).storedValues();
    SerializationConfig config = stored.config();
    assertThat(config.defaultName()).isEqualTo("compact");
    assertThat(config.allow()).containsExactly("com.acme.*", "com.example.Order");
    assertThat(config.maxSize()).isEqualTo(2 * 1024 * 1024);
    assertThat(config.maxDepth()).isEqualTo(50);
    assertThat(config.serializers().keySet()).containsExactly("compact", "plain", "packed");
    assertThat(config.serializers().get("compact").describe()).isEqualTo("jdk + gzip level 9");
    assertThat(config.serializers().get("packed").describe()).isEqualTo("jdk + none");
    assertThat(stored.name()).isEqualTo("compact");
    assertThat(stored.defaultCodec().name()).isEqualTo("gzip");
  }

  @Test
  void withoutSerializationTheBuiltInDefaultIsUsed() {
    StoredValues stored = Configs.build("flows: []").storedValues();
    SerializationConfig config = stored.config();
    assertThat(config.defaultName()).isEqualTo("default");
    assertThat(config.defaultIsDetected()).isTrue();
    assertThat(config.serializers()).isEmpty();
    assertThat(config.allow()).isEmpty();
    assertThat(config.maxSize()).isEqualTo(64 * 1024 * 1024);
    assertThat(config.maxDepth()).isEqualTo(100);
    assertThat(stored.detected()).isTrue();
    // sluice-serializers is on this module's test class path, as it is in sluice run
    assertThat(stored.defaultSerializer().name()).isEqualTo("fory");
    assertThat(stored.defaultCodec().name()).isEqualTo("none");
    assertThat(stored.describe())
        .startsWith(
            "serialization: default 'default' = fory + none (detected: sluice-serializers is"
                + " installed)");
  }

  @Test
  void sizesTakeBytesOrAUnit() {
    assertThat(maxSize("1048576")).isEqualTo(1 << 20);
    assertThat(maxSize("512B")).isEqualTo(512);
    assertThat(maxSize("16KB")).isEqualTo(16 << 10);
    assertThat(maxSize("1GB")).isEqualTo(1 << 30);
  }

  private static int maxSize(String written) {
    return Configs.build("serialization: { maxSize: " + written + " }\nflows: []")
        .storedValues()
        .config()
        .maxSize();
  }

  @Test
  void theDefaultWritesAndAnotherNamedOneWritesWhatEitherReads() {
    StoredValues stored = Configs.build(FULL).storedValues();
    byte[] byDefault = stored.write(List.of("x".repeat(500)));
    byte[] plain = stored.named("plain").write(List.of("y"));
    assertThat(stored.peek(byDefault).codecId()).isEqualTo(2);
    assertThat(stored.peek(plain).codecId()).isZero();
    assertThat(stored.read(plain)).isEqualTo(List.of("y"));
    assertThat(stored.named("plain").read(byDefault)).isEqualTo(List.of("x".repeat(500)));
  }

  @Test
  void startLogsTheEffectiveDefaultOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(Application.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (Application app = Configs.build(FULL)) {
      app.start();
    } finally {
      logger.detachAppender(appender);
    }
    assertThat(appender.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .filteredOn(m -> m.startsWith("serialization:"))
        .singleElement()
        .asString()
        .startsWith("serialization: default 'compact' = jdk + gzip level 9, named [")
        .contains("default = fory + none (detected)", "plain = jdk + none")
        .contains("maxSize 2097152 bytes", "maxDepth 50", "allow [com.acme.*, com.example.Order]");
  }

  @Test
  void everyErrorIsReportedTogetherWithItsLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            serialization:
              default: fast
              allow: ["*"]
              maxSize: 64 MiB
              maxDepth: 0
              serializers:
                compact: { type: msgpack, codec: zstd, level: 99 }
                odd:     { type: jdk, codec: brotli, lvl: 1 }
                tight:   { codec: gzip }
            flows: []
            """);
    assertThat(problems)
        .extracting(ConfigProblem::toString)
        .containsExactly(
            "app.yaml:2:3: serialization.default: value 'fast' is not a defined serializer;"
                + " defined: [compact, odd, tight] (under serialization.serializers), or"
                + " 'default', the built-in one",
            "app.yaml:3:11: serialization.allow[0]: value '*' "
                + problemFor("*").substring(problemFor("*").indexOf("value '*' ") + 10),
            "app.yaml:4:3: serialization.maxSize: value '64 MiB' " + Sizes.RULE,
            "app.yaml:5:3: serialization.maxDepth: value '0' must be at least 1",
            "app.yaml:7:16: serialization.serializers.compact.type: value 'msgpack' is not an"
                + " installed serializer; installed: [fory (3), jdk (1), kryo (2)]",
            "app.yaml:7:44: serialization.serializers.compact.level: value '99' zstd level 99 is"
                + " outside -131072..22",
            "app.yaml:8:27: serialization.serializers.odd.codec: value 'brotli' is not an"
                + " installed codec; installed: [deflate (1), gzip (2), lz4 (3), none (0), zstd (4)]",
            "app.yaml:8:42: serialization.serializers.odd.lvl: value 'lvl' is not a known key;"
                + " did you mean 'level'? allowed here: type, codec, level",
            "app.yaml:9:5: serialization.serializers.tight.type: is required");
  }

  private static String problemFor(String pattern) {
    return Configs.problems("serialization: { allow: [\"" + pattern + "\"] }\nflows: []")
        .getFirst()
        .toString();
  }
}
