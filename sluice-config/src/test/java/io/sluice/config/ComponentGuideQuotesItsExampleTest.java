package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The guide for component authors ({@code docs/components.md}) shows code that is compiled and
 * tested: each block it marks {@code <!-- quoted from PATH -->} is found, line for line, in that
 * file of the build, and every file of its example ({@code shout}) is quoted.
 */
class ComponentGuideQuotesItsExampleTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern QUOTE =
      Pattern.compile("<!-- quoted from (\\S+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);
  private static final String EXAMPLE = "sluice-config/src/test/";

  private static Map<String, String> quotes() throws IOException {
    String guide = Files.readString(ROOT.resolve("docs/components.md"));
    Map<String, String> quoted = new LinkedHashMap<>();
    Matcher m = QUOTE.matcher(guide);
    while (m.find()) {
      quoted.merge(m.group(1), m.group(2), (a, b) -> a + "\u0000" + b);
    }
    return quoted;
  }

  @Test
  void everyQuotedBlockIsInTheFileItNames() throws IOException {
    Map<String, String> quotes = quotes();

    assertThat(quotes).isNotEmpty();
    for (Map.Entry<String, String> quote : quotes.entrySet()) {
      String source = Files.readString(ROOT.resolve(quote.getKey()));
      for (String block : quote.getValue().split("\u0000")) {
        assertThat(source).as("docs/components.md quoting " + quote.getKey()).contains(block);
      }
    }
  }

  @Test
  void everyFileOfTheExampleIsQuoted() throws IOException {
    assertThat(quotes().keySet())
        .contains(
            EXAMPLE + "java/io/sluice/config/plugin/ShoutProcessor.java",
            EXAMPLE + "java/io/sluice/config/plugin/ShoutComponents.java",
            EXAMPLE + "resources/io/sluice/config/plugin/shout.schema.json",
            EXAMPLE + "resources/plugin/META-INF/services/io.sluice.config.spi.ComponentProvider",
            EXAMPLE + "java/io/sluice/config/plugin/ShoutProcessorContractTest.java",
            EXAMPLE + "java/io/sluice/config/AComponentOfTheTestSourcesPlugsInTest.java");
  }
}
