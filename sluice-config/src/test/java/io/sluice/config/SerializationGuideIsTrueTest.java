package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The serialization section of docs/configuration.md shows what Sluice says. */
class SerializationGuideIsTrueTest {

  private static final Pattern PLAIN_BLOCK = Pattern.compile("```\\n(.*?)```", Pattern.DOTALL);

  /** Discovers only the serializers and codecs of sluice-core, as without sluice-serializers. */
  private static final ClassLoader CORE_ONLY =
      new ClassLoader(SerializationGuideIsTrueTest.class.getClassLoader()) {
        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
          if (!name.startsWith("META-INF/services/io.sluice.core.serialization.spi.")) {
            return super.getResources(name);
          }
          List<URL> core =
              Collections.list(super.getResources(name)).stream()
                  .filter(url -> url.toString().contains("sluice-core"))
                  .toList();
          return Collections.enumeration(core);
        }
      };

  @Test
  void theErrorExampleGivesTheOutputShown() throws IOException {
    String guide = Files.readString(Path.of("../docs/configuration.md"));
    String section = guide.substring(guide.indexOf("**Errors** come together"));
    Matcher blocks = PLAIN_BLOCK.matcher(section);
    assertThat(blocks.find()).isTrue();
    String yaml = blocks.group(1);
    assertThat(blocks.find()).isTrue();
    String output = blocks.group(1).strip();

    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () -> ConfigLoader.parse("app.yaml", yaml, Configs.BASE, CORE_ONLY));

    assertThat(e.getMessage().lines().toList()).isEqualTo(output.lines().toList());
  }
}
