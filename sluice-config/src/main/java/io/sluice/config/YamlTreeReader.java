package io.sluice.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceMap;
import io.sluice.core.ConfigProblem;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Builds a Jackson tree from YAML with the streaming parser, recording in a {@link SourceMap} where
 * each key and list item was written. Duplicate keys are problems, not silent overwrites.
 *
 * <p>Anchors, aliases and merge keys are resolved as YAML defines them, which Jackson's parser does
 * not do (it reads an alias as the text of its anchor's name, and {@code <<} as a key): an alias
 * ({@code *name}) stands for a copy of the value its anchor ({@code &name}) marked before it; a
 * merge key ({@code <<: *name}, or a list of aliases) adds the keys of the maps it names to the map
 * it is in, keys written in that map winning, then earlier maps of the list over later ones (YAML
 * 1.1's merge type). Inside a copied value a problem points to where the anchor wrote it; the key
 * that holds the alias keeps its own place.
 *
 * <p>The placeholders of every scalar value (not of keys) are resolved as the value is read ({@link
 * PlaceholderResolver}), so a value copied by an alias is the resolved one, and a problem of a
 * placeholder names the line and column where it was written.
 */
final class YamlTreeReader {

  /**
   * The most values aliases may add to a file: a few aliases of aliases (a "billion laughs")
   * otherwise grow a 1 KB file into billions of values. A profile used by a thousand flows adds a
   * few thousand.
   */
  static final int MAX_ALIASED_VALUES = 100_000;

  private static final Pattern MARK = Pattern.compile("^in '[^']*', line ([0-9]+), column");
  private static final YAMLFactory YAML = new EventRecordingFactory();
  private static final ObjectMapper SCALARS = new ObjectMapper(new YAMLFactory());

  /** The merge key of YAML 1.1, when written plain (quoted, it is an ordinary key). */
  private static final String MERGE = "<<";

  /** The path of problems about the file as a whole. */
  static final String FILE = SourceMap.FILE;

  private final SourceMap sourceMap;
  private final ProblemCollector problems;
  private final PlaceholderResolver placeholders;
  private final Map<String, Anchored> anchors = new HashMap<>();
  private final Set<String> open = new HashSet<>();
  private int aliasedValues;

  /** A value an anchor marked, where it was written, and how many values a copy of it adds. */
  private record Anchored(JsonNode value, String path, int size) {}

  /** A YAML error found while resolving aliases: like a syntax error, it ends the reading. */
  private static final class YamlError extends RuntimeException {
    private final transient ConfigProblem problem;

    YamlError(ConfigProblem problem) {
      super(problem.rule(), null, false, false);
      this.problem = problem;
    }
  }

  YamlTreeReader(SourceMap sourceMap, ProblemCollector problems, PlaceholderResolver placeholders) {
    this.sourceMap = sourceMap;
    this.problems = problems;
    this.placeholders = placeholders;
  }

  /** The tree, or null after recording the syntax error (a YAML error ends the reading). */
  JsonNode read(String yaml) {
    try (JsonParser parser = YAML.createParser(new StringReader(yaml))) {
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
    } catch (YamlError e) {
      problems.add(e.problem);
      return null;
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
    Event event = ((EventRecordingParser) parser).event();
    if (event instanceof AliasEvent alias) {
      return aliased(alias.getAnchor(), path, parser);
    }
    String anchor = event instanceof NodeEvent node ? node.getAnchor() : null;
    if (anchor == null) {
      return unanchored(parser, path);
    }
    open.add(anchor);
    JsonNode value = unanchored(parser, path);
    open.remove(anchor);
    anchors.put(anchor, new Anchored(value, path, size(value)));
    return value;
  }

  /** A copy of the value {@code name} anchored, its positions those of the anchored one. */
  private JsonNode aliased(String name, String path, JsonParser parser) {
    Anchored anchored = anchors.get(name);
    if (anchored == null) {
      throw error(
          path,
          "*" + name,
          open.contains(name)
              ? "is an alias inside the value its anchor &"
                  + name
                  + " marks: a value that contains itself has no end"
              : "is an alias of no anchor: an alias names a value marked &"
                  + name
                  + " earlier in the file; "
                  + (anchors.isEmpty()
                      ? "no anchor is defined before it"
                      : "the anchors defined before it are "
                          + String.join(", ", anchors.keySet().stream().sorted().toList())),
          parser);
    }
    aliasedValues += anchored.size();
    if (aliasedValues > MAX_ALIASED_VALUES) {
      throw error(
          path,
          "*" + name,
          "makes the file's aliases add more than "
              + MAX_ALIASED_VALUES
              + " values; are aliases of aliases multiplying each other?",
          parser);
    }
    sourceMap.copy(anchored.path(), path);
    return anchored.value().deepCopy();
  }

  private YamlError error(String path, String value, String rule, JsonParser parser) {
    return new YamlError(
        ConfigProblem.of(path.isEmpty() ? FILE : path, value, rule)
            .at(position(parser.currentTokenLocation())));
  }

  private JsonNode unanchored(JsonParser parser, String path) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      String mergePath = null;
      JsonNode merged = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String key = parser.currentName();
        String child = SourceMap.child(path, key);
        boolean merge = MERGE.equals(key) && isPlain(parser);
        if (merge ? merged != null : object.has(key)) {
          problems.add(
              ConfigProblem.of(
                      child,
                      key,
                      "is a duplicate key; it was already set at " + sourceMap.locate(child))
                  .at(position(parser.currentTokenLocation())));
        }
        sourceMap.put(child, line(parser), column(parser));
        if (((EventRecordingParser) parser).event() instanceof ScalarEvent keyEvent
            && keyEvent.getAnchor() != null) {
          // An anchored key (&k name: ...) is a value like any other for a later *k.
          anchors.put(keyEvent.getAnchor(), new Anchored(TextNode.valueOf(key), child, 1));
        }
        parser.nextToken();
        JsonNode value = value(parser, child);
        if (merge) {
          mergePath = child;
          merged = value;
        } else {
          object.set(key, value);
        }
      }
      if (merged != null) {
        merge(object, path, merged, mergePath, parser);
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
    if (token == JsonToken.VALUE_STRING) {
      // Placeholders are resolved here, where the value's own line and style are known.
      boolean plain = isPlain(parser);
      return placeholders.resolve(
          path, parser.getText(), plain, plain && onOneLine(parser), line(parser), column(parser));
    }
    return SCALARS.readTree(parser);
  }

  /**
   * Adds to {@code object} the keys of the map (or maps) a merge key gave it, as YAML 1.1 defines:
   * its own keys win, then each map of a list over those after it.
   */
  private void merge(
      ObjectNode object, String path, JsonNode merged, String mergePath, JsonParser parser) {
    List<JsonNode> maps = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    if (merged.isObject()) {
      maps.add(merged);
      paths.add(mergePath);
    } else if (merged.isArray()) {
      for (int i = 0; i < merged.size(); i++) {
        maps.add(merged.get(i));
        paths.add(SourceMap.item(mergePath, i));
      }
    }
    if (maps.isEmpty() && !merged.isArray() || maps.stream().anyMatch(m -> !m.isObject())) {
      throw new YamlError(
          ConfigProblem.of(
                  mergePath,
                  merged.isValueNode() ? merged.asText() : merged.toString(),
                  "must be a map or a list of maps: a merge key (<<) adds the keys of maps,"
                      + " usually aliases (<<: *defaults), to the map it is in")
              .at(sourceMap.locate(mergePath)));
    }
    for (int i = 0; i < maps.size(); i++) {
      String from = paths.get(i);
      for (Map.Entry<String, JsonNode> field : maps.get(i).properties()) {
        if (!object.has(field.getKey())) {
          object.set(field.getKey(), field.getValue());
          sourceMap.copy(
              SourceMap.child(from, field.getKey()), SourceMap.child(path, field.getKey()));
        }
      }
    }
  }

  /**
   * Whether the current scalar was written plain, not quoted: only a plain {@code <<} merges, and
   * only a plain placeholder is typed by its value.
   */
  private static boolean isPlain(JsonParser parser) {
    return ((EventRecordingParser) parser).event() instanceof ScalarEvent scalar
        && scalar.isPlain();
  }

  /** Whether the current scalar was written on one line (its characters are where it says). */
  private static boolean onOneLine(JsonParser parser) {
    return ((EventRecordingParser) parser).event() instanceof ScalarEvent scalar
        && scalar.getStartMark().getLine() == scalar.getEndMark().getLine();
  }

  /** How many values {@code node} holds, itself included. */
  private static int size(JsonNode node) {
    int size = 1;
    for (JsonNode child : node) {
      size += size(child);
    }
    return size;
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

  /** Jackson's YAML factory, making parsers that tell the YAML event behind their token. */
  private static final class EventRecordingFactory extends YAMLFactory {

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) throws IOException {
      return new EventRecordingParser(
          context, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec, reader);
    }

    @Override
    protected YAMLParser _createParser(
        char[] data, int offset, int length, IOContext context, boolean recyclable)
        throws IOException {
      return _createParser(new CharArrayReader(data, offset, length), context);
    }
  }

  /**
   * Jackson's YAML parser, keeping the last YAML event it read: the one behind the current token,
   * which tells an alias from text, the anchor of a value (Jackson drops a scalar's) and a plain
   * key from a quoted one.
   */
  private static final class EventRecordingParser extends YAMLParser {

    private Event event;

    EventRecordingParser(
        IOContext context,
        int parserFeatures,
        int yamlFeatures,
        LoaderOptions loaderOptions,
        ObjectCodec codec,
        Reader reader) {
      super(context, parserFeatures, yamlFeatures, loaderOptions, codec, reader);
    }

    @Override
    protected Event getEvent() throws IOException {
      event = super.getEvent();
      return event;
    }

    Event event() {
      return event;
    }
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
