package io.sluice.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.core.ConfigProblem;
import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a Jackson tree from YAML with the streaming parser, recording in a {@link SourceMap} where
 * each key and list item was written. Duplicate keys are problems, not silent overwrites.
 */
final class YamlTreeReader {

  private static final Pattern MARK = Pattern.compile("^in '[^']*', line ([0-9]+), column");
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final ObjectMapper SCALARS = new ObjectMapper(YAML);

  /** The path of problems about the file as a whole. */
  static final String FILE = "(file)";

  private final SourceMap sourceMap;
  private final ProblemCollector problems;

  YamlTreeReader(SourceMap sourceMap, ProblemCollector problems) {
    this.sourceMap = sourceMap;
    this.problems = problems;
  }

  /** The tree, or null after recording the syntax error (a YAML error ends the reading). */
  JsonNode read(String yaml) {
    try (JsonParser parser = YAML.createParser(yaml)) {
      if (parser.nextToken() == null) {
        problems.add(FILE, null, "is empty; it needs at least a 'flows' list");
        return null;
      }
      sourceMap.put("", 1, 1);
      JsonNode root = value(parser, "");
      if (parser.nextToken() != null) {
        problems.add(
            ConfigProblem.of(
                    FILE,
                    null,
                    "holds more than one YAML document; put every" + " flow in one document")
                .at(position(parser.currentTokenLocation())));
      }
      return root;
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      problems.add(
          ConfigProblem.of(FILE, null, "is not valid YAML: " + describe(e))
              .at(where == null ? sourceMap.locate("") : position(where)));
      return null;
    } catch (IOException e) {
      problems.add(FILE, null, "could not be read: " + e.getMessage());
      return null;
    }
  }

  private JsonNode value(JsonParser parser, String path) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String key = parser.currentName();
        String child = SourceMap.child(path, key);
        if (object.has(key)) {
          problems.add(
              ConfigProblem.of(
                      child,
                      key,
                      "is a duplicate key; it was already set at " + sourceMap.locate(child))
                  .at(position(parser.currentTokenLocation())));
        }
        sourceMap.put(child, line(parser), column(parser));
        parser.nextToken();
        object.set(key, value(parser, child));
      }
      return object;
    }
    if (token == JsonToken.START_ARRAY) {
      ArrayNode array = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; parser.nextToken() != JsonToken.END_ARRAY; i++) {
        String child = SourceMap.item(path, i);
        sourceMap.put(child, line(parser), column(parser));
        array.add(value(parser, child));
      }
      return array;
    }
    if (token == JsonToken.VALUE_NULL) {
      return NullNode.instance;
    }
    return SCALARS.readTree(parser);
  }

  private String position(JsonLocation location) {
    return sourceMap.fileName() + ":" + location.getLineNr() + ":" + location.getColumnNr();
  }

  private static int line(JsonParser parser) {
    return parser.currentTokenLocation().getLineNr();
  }

  private static int column(JsonParser parser) {
    return parser.currentTokenLocation().getColumnNr();
  }

  /**
   * SnakeYAML's message on one line: each "in 'reader', line N" becomes "(line N)" after the phrase
   * it belongs to, and the echoed source line and its caret are left out.
   */
  static String describe(JsonProcessingException e) {
    List<String> lines = e.getOriginalMessage().lines().toList();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      Matcher mark = MARK.matcher(line);
      if (mark.find()) {
        text.append(" (line ").append(mark.group(1)).append(')');
        i += 2; // the echoed source line and the caret under it
      } else if (!line.isEmpty()) {
        text.append(text.isEmpty() ? "" : "; ").append(line);
      }
    }
    return text.toString();
  }
}
