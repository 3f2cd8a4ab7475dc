package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The meters operators scrape are listed in the docs, found from the code: every {@code
 * "sluice.x.y"} name given to a meter builder (or to a helper that makes a meter: {@code
 * counter(registry, "sluice.file.read", ...)}) in any module's main sources must have a row (or a
 * mention) in docs/architecture.md or docs/configuration.md. A table row naming {@code
 * `sluice.stage.rejected` / `discarded`} documents {@code sluice.stage.discarded} too.
 */
class EveryMeterIsDocumentedTest {

  private static final Path ROOT = Path.of("..");

  /** A meter name, and what comes just before it in its statement. */
  private static final Pattern NAME = Pattern.compile("\"(sluice\\.[a-z0-9.]+[a-z0-9])\"");

  private static final Pattern MADE_BY_A_METER_CALL =
      Pattern.compile(
          "(builder|counter|gauge|timer|summary|Counter|Gauge|Timer)\\s*\\(([^()]*|\\s*\\w+\\s*,\\s*)$");

  @Test
  void everyMeterNamedInTheCodeHasItsPlaceInTheDocs() throws IOException {
    TreeMap<String, String> meters = metersInTheCode();
    assertThat(meters)
        .as("the scan finds the meters")
        .containsKeys(
            "sluice.flow.messages",
            "sluice.jobs.run",
            "sluice.http.server.requests",
            "sluice.file.read");
    Set<String> documented = documented();
    TreeMap<String, String> missing = new TreeMap<>(meters);
    missing.keySet().removeAll(documented);
    assertThat(missing)
        .as("meters made in the code (and where) that docs/architecture.md does not list")
        .isEmpty();
  }

  private static TreeMap<String, String> metersInTheCode() throws IOException {
    TreeMap<String, String> meters = new TreeMap<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module :
          modules.filter(m -> m.getFileName().toString().startsWith("sluice-")).toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isDirectory(main) || module.getFileName().toString().equals("sluice-bench")) {
          continue;
        }
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            String source = Files.readString(file);
            Matcher name = NAME.matcher(source);
            while (name.find()) {
              String before = source.substring(Math.max(0, name.start() - 120), name.start());
              before = before.substring(before.lastIndexOf(';') + 1);
              if (MADE_BY_A_METER_CALL.matcher(before).find()) {
                meters.putIfAbsent(name.group(1), ROOT.relativize(file).toString());
              }
            }
          }
        }
      }
    }
    return meters;
  }

  /** Every name the docs give in backquotes, a table row's short names completed by its first. */
  private static Set<String> documented() throws IOException {
    Set<String> names = new TreeSet<>();
    Pattern quoted = Pattern.compile("`([a-z0-9.]+)`");
    for (String doc : new String[] {"docs/architecture.md", "docs/configuration.md"}) {
      for (String line : Files.readAllLines(ROOT.resolve(doc))) {
        String full = null;
        boolean row = line.startsWith("| `sluice.");
        String firstCell = row ? line.substring(1, line.indexOf('|', 1)) : line;
        Matcher m = quoted.matcher(firstCell);
        while (m.find()) {
          String token = m.group(1);
          if (token.startsWith("sluice.")) {
            full = token;
            names.add(token);
          } else if (row && full != null) {
            names.add(full.substring(0, full.lastIndexOf('.') + 1) + token);
          }
        }
        if (!row) {
          Matcher any = quoted.matcher(line);
          while (any.find()) {
            names.add(any.group(1));
          }
        }
      }
    }
    return names;
  }
}
