package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.processor.LoggerProcessor;
import io.sluice.http.HttpListenerSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "Placeholders" section of docs/configuration.md: its example loads, its errors are true. */
class PlaceholderGuideIsTrueTest {

  private static final Pattern BLOCK = Pattern.compile("```(yaml|text)\\n(.*?)```", Pattern.DOTALL);
  private static final String MARKER = "<!-- placeholder-example";

  @TempDir Path temp;

  private static String section() throws IOException {
    String guide = Files.readString(Path.of("../docs/configuration.md"));
    int start = guide.indexOf("## Placeholders");
    return guide.substring(start, guide.indexOf("\n## ", start + 1));
  }

  private static List<String> blocks(String text, String language) {
    List<String> found = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(language)) {
        found.add(m.group(2));
      }
    }
    return found;
  }

  @Test
  void theExampleLoadsWithAPropertiesFileAndASecretFile() throws IOException {
    Path prod =
        Files.writeString(temp.resolve("prod.properties"), "DB_HOST=db.prod\nHTTP_PORT=9090\n");
    Files.createDirectories(temp.resolve("secrets"));
    Files.writeString(temp.resolve("secrets/db-password"), "guide-db-password-secret\n");
    PropertySources sources =
        PropertySources.builder()
            .propertiesFile(prod)
            .systemProperties(Map.of())
            .environment(Map.of())
            .build();

    Application app =
        Configs.read(blocks(section(), "yaml").getFirst(), temp, sources).application().build();

    assertThat(app.storageConfig().url()).isEqualTo("jdbc:postgresql://db.prod:5432/orders");
    assertThat(app.storageConfig().user()).isEqualTo("sluice");
    assertThat(app.storageConfig().password()).isEqualTo("guide-db-password-secret");
    assertThat(((HttpListenerSource) app.flows().getFirst().source()).server().port())
        .isEqualTo(9090);
    LoggerProcessor logger = (LoggerProcessor) app.flows().getFirst().processors().getFirst();
    assertThat(Fields.ofType(logger, Template.class).text())
        .isEqualTo("#[payload] for eu, not ${REGION}");
  }

  @Test
  void theErrorExampleGivesTheOutputShown() throws IOException {
    String example = section().substring(section().indexOf(MARKER));
    Path prod = Files.writeString(temp.resolve("prod.properties"), "OTHER=1\n");
    PropertySources sources =
        PropertySources.builder()
            .propertiesFile(prod)
            .systemProperties(Map.of())
            .environment(Map.of())
            .build();

    ConfigurationException e =
        catchThrowableOfType(
            ConfigurationException.class,
            () -> Configs.read(blocks(example, "yaml").getFirst(), temp, sources));

    assertThat(e.getMessage().replace(prod.toString(), "prod.properties").lines().toList())
        .isEqualTo(blocks(example, "text").getFirst().strip().lines().toList());
  }
}
