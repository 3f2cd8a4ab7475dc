package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.core.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * Where the guide documents each db component: the schema pointer of its keys, and the part of
   * the guide (from a start to an end marker) whose tables hold them.
   */
  private static final Map<String, String[]> DB_COMPONENTS = dbComponents();

  private static Map<String, String[]> dbComponents() {
    Map<String, String[]> parts = new LinkedHashMap<>();
    String operations = "**Operations.**";
    String errors = "**Errors.** A statement that fails";
    parts.put("/$defs/dataSource", new String[] {"## `dataSources`", "`pool`:\n"});
    parts.put("/$defs/dataSourcePool", new String[] {"`pool`:\n", operations});
    for (String kind :
        List.of("db-select", "db-insert", "db-update", "db-delete", "db-execute", "db-bulk")) {
      parts.put("/$defs/processor/properties/" + kind, new String[] {operations, errors});
    }
    parts.put(
        "/$defs/source/properties/db-poll", new String[] {"`db-poll`: runs", "### Processors"});
    parts.put(
        "/$defs/batchInput/properties/query",
        new String[] {"**A query** (`input: { query: … }`", "How it resumes:"});
    return parts;
  }

  /**
   * Each key of the data sources, the db processors, db-poll and the query input has a row in its
   * own part of the guide (a processor's: the table of every operation's keys, or its kind's rows),
   * and that row says what the schema says: "required" when it is, the default in backticks, the
   * bounds as "min–max". A key named only elsewhere in the guide does not count.
   */
  @Test
  void everyDbKeyHasARowInItsOwnTableWithTheSchemasDefaultAndBounds() throws IOException {
    String guide = guide();
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    List<String> wrong = new ArrayList<>();
    DB_COMPONENTS.forEach(
        (pointer, part) -> {
          JsonNode component = schema.at(pointer);
          assertThat(component.path("properties").isObject()).as(pointer).isTrue();
          String kind = pointer.substring(pointer.lastIndexOf('/') + 1);
          Map<String, List<String>> rows = rows(part(guide, part[0], part[1]), kind);
          List<String> required = new ArrayList<>();
          component.path("required").forEach(name -> required.add(name.asText()));
          for (Map.Entry<String, JsonNode> key : component.path("properties").properties()) {
            String at = kind + "." + key.getKey();
            List<String> row = rows.get(key.getKey());
            if (row == null) {
              wrong.add(at + ": no row in its part of the guide");
              continue;
            }
            JsonNode property = key.getValue();
            if (required.contains(key.getKey()) && !row.get(0).contains("required")) {
              wrong.add(at + ": required, the guide's type says not (" + row.get(0) + ")");
            }
            if (property.has("default")
                && !row.get(1).contains("`" + property.get("default").asText() + "`")) {
              wrong.add(
                  at + ": default " + property.get("default") + ", the guide's " + row.get(1));
            }
            if (property.has("minimum")
                && property.has("maximum")
                && !row.get(0)
                    .contains(property.get("minimum").asText() + "–" + property.get("maximum"))) {
              wrong.add(
                  at
                      + ": from "
                      + property.get("minimum")
                      + " to "
                      + property.get("maximum")
                      + ", the guide's "
                      + row.get(0));
            }
          }
        });
    assertThat(wrong).isEmpty();
  }

  private static String part(String guide, String start, String end) {
    int from = guide.indexOf(start);
    assertThat(from).as("the guide has '%s'", start).isNotNegative();
    int to = guide.indexOf(end, from + start.length());
    assertThat(to).as("the guide has '%s' after '%s'", end, start).isPositive();
    return guide.substring(from, to);
  }

  /**
   * The rows of {@code part}'s tables that document {@code kind}'s keys, by key: the type and
   * default cells. A table with a Kind column documents a kind's keys in the rows from the one
   * naming it to the next that names a kind; a table without documents every kind of its part.
   */
  private static Map<String, List<String>> rows(String part, String kind) {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    List<String> header = null;
    String currentKind = "";
    for (String line : part.lines().toList()) {
      if (!line.startsWith("|")) {
        header = null;
        continue;
      }
      List<String> cells =
          Arrays.stream(line.substring(1, line.lastIndexOf('|')).split("\\|", -1))
              .map(String::strip)
              .toList();
      if (header == null) {
        header = cells;
        currentKind = "";
        continue;
      }
      if (cells.getFirst().startsWith("---")) {
        continue;
      }
      int kindColumn = header.indexOf("Kind");
      if (kindColumn >= 0 && !cells.get(kindColumn).isEmpty()) {
        currentKind = cells.get(kindColumn);
      }
      if (kindColumn >= 0 && !currentKind.contains("`" + kind + "`")) {
        continue;
      }
      String key = cells.get(header.indexOf("Key"));
      if (key.matches("`[A-Za-z]+`")) {
        int type = header.indexOf("Type");
        int value = header.indexOf("Default");
        rows.put(
            key.substring(1, key.length() - 1),
            List.of(cells.get(type), value < 0 ? "" : cells.get(value)));
      }
    }
    return rows;
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
