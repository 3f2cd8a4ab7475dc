package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ConfigurationGuideIsTrueToTheSchemaTest {

  private static final Pattern BLOCK = Pattern.compile("```(yaml|text)\\n(.*?)```", Pattern.DOTALL);
  private static final String ERROR_EXAMPLE = "<!-- error-example";

  private static String guide() throws IOException {
    return Files.readString(Path.of("../docs/configuration.md"));
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
  void theGuideNamesEveryKeyOfTheSchema() throws IOException {
    String guide = guide();
    TreeSet<String> keys = new TreeSet<>();
    EverySchemaPropertyHasADescriptionTest.forEachSchema(
        EverySchemaPropertyHasADescriptionTest.schema(),
        "#",
        (pointer, node) -> node.path("properties").fieldNames().forEachRemaining(keys::add));
    assertThat(keys).isNotEmpty().allSatisfy(key -> assertThat(guide).contains("`" + key + "`"));
  }

  @Test
  void theGuidesExamplesLoad() throws IOException {
    String guide = guide();
    List<String> examples = blocks(guide.substring(0, guide.indexOf(ERROR_EXAMPLE)), "yaml");
    assertThat(examples).isNotEmpty();
    examples.forEach(Configs::build);
  }

  @Test
  void theGuidesErrorExampleGivesTheOutputShown() throws IOException {
    String example = guide().substring(guide().indexOf(ERROR_EXAMPLE));
    String yaml = blocks(example, "yaml").get(0);
    String output = blocks(example, "text").get(0).strip();

    ConfigurationException e = new ConfigurationException(Configs.problems(yaml));

    assertThat(e.getMessage().lines().toList()).isEqualTo(output.lines().toList());
  }
}
