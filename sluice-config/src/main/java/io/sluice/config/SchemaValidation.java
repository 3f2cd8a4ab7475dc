package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.sluice.config.spi.Durations;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.Sizes;
import io.sluice.config.spi.SourceMap;
import io.sluice.config.spi.Threads;
import io.sluice.core.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validates a configuration tree against the shipped JSON Schema and turns each violation into a
 * {@link ConfigProblem} with a dotted path, the bad value, the rule in words and its line.
 */
final class SchemaValidation {

  static final String RESOURCE = "sluice.schema.json";

  /** The schema file as shipped: the frame the components' fragments go into. */
  private static final JsonNode FRAME = parse(readSchema());

  /** The schema of the components of the class path. */
  static final SchemaValidation DEFAULT = new SchemaValidation(ComponentRegistry.INSTANCE);

  private final ComponentRegistry registry;

  /** The frame with the components' fragments: without the defaults the Java builders give. */
  private final JsonNode tree;

  private final JsonSchema schema;

  private static final String DURATION_RULE = Durations.RULE;

  /** The rule of a {@code threads} value (a batch job's). */
  static final String THREADS_RULE = Threads.RULE;

  private static final Pattern ONE_OF_BRANCH_REQUIRED = Pattern.compile("/oneOf/\\d+/required$");

  SchemaValidation(ComponentRegistry registry) {
    this.registry = registry;
    this.tree = SchemaAssembly.assemble(FRAME, registry);
    this.schema =
        JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(tree, SchemaValidatorsConfig.builder().locale(Locale.ENGLISH).build());
  }

  /** The components this schema was assembled from. */
  ComponentRegistry registry() {
    return registry;
  }

  void validate(JsonNode root, ProblemCollector problems) {
    List<ValidationMessage> messages = new ArrayList<>(schema.validate(root));
    messages.sort(Comparator.comparing(m -> m.getInstanceLocation().toString()));
    List<String> missingTopLevel = new ArrayList<>();
    for (ValidationMessage message : messages) {
      if (ONE_OF_BRANCH_REQUIRED.matcher(message.getSchemaLocation().toString()).find()) {
        // A branch of a oneOf missing its key: the oneOf's own problem names every branch.
        continue;
      }
      if (message.getSchemaLocation().toString().endsWith("#/anyOf/0/required")
          || message.getSchemaLocation().toString().endsWith("#/anyOf/1/required")) {
        missingTopLevel.add(message.getProperty());
      } else {
        problems.add(problem(message));
      }
    }
    if (!missingTopLevel.isEmpty()) {
      // The file's anyOf: flows, batch jobs or both. One problem says so, not one per branch.
      problems.add(
          ConfigProblem.of(
              missingTopLevel.getFirst(),
              null,
              "is required unless "
                  + String.join(" or ", missingTopLevel.subList(1, missingTopLevel.size()))
                  + " is given: a file declares flows, batch jobs or both"));
    }
  }

  private ConfigProblem problem(ValidationMessage m) {
    String at = path(m.getInstanceLocation());
    JsonNode schemaNode = m.getSchemaNode();
    String place = parentPointer(m);
    JsonNode parentSchema = tree.at(place);
    if (m.getSchemaLocation().toString().contains("/$defs/threads/")) {
      return ConfigProblem.of(at, value(m.getInstanceNode()), THREADS_RULE);
    }
    return switch (m.getType()) {
      case "additionalProperties" ->
          ConfigProblem.of(
              SourceMap.child(at, m.getProperty()),
              m.getProperty(),
              unknownKey(place, m.getProperty(), parentSchema.path("properties")));
      case "propertyNames" ->
          ConfigProblem.of(
              SourceMap.child(at, m.getProperty()), m.getProperty(), nameRule(schemaNode));
      case "required" ->
          ConfigProblem.of(SourceMap.child(at, m.getProperty()), null, "is required");
      case "minProperties", "maxProperties" ->
          ConfigProblem.of(
              at,
              keysOrNull(m.getInstanceNode()),
              "must hold exactly one of: " + keys(parentSchema.path("properties")));
      case "oneOf" ->
          ConfigProblem.of(
              at,
              keysOrNull(m.getInstanceNode()),
              "must hold exactly one of: " + requiredOfEach(schemaNode));
      case "enum" ->
          ConfigProblem.of(
              at,
              value(m.getInstanceNode()),
              "must be one of: "
                  + String.join(", ", schemaNode.valueStream().map(JsonNode::asText).toList()));
      case "minimum" ->
          ConfigProblem.of(
              at, value(m.getInstanceNode()), "must be at least " + schemaNode.asText());
      case "maximum" ->
          ConfigProblem.of(
              at, value(m.getInstanceNode()), "must be at most " + schemaNode.asText());
      case "minLength" -> ConfigProblem.of(at, value(m.getInstanceNode()), "must not be empty");
      case "pattern" ->
          ConfigProblem.of(
              at,
              value(m.getInstanceNode()),
              m.getSchemaLocation().toString().endsWith("/$defs/duration/pattern")
                  ? DURATION_RULE
                  : m.getSchemaLocation().toString().endsWith("/$defs/size/pattern")
                      ? Sizes.RULE
                      : "must match the pattern " + schemaNode.asText());
      case "type" ->
          ConfigProblem.of(
              at,
              value(m.getInstanceNode()),
              m.getSchemaLocation().toString().endsWith("/$defs/duration/type")
                  ? DURATION_RULE + ", not a bare number"
                  : m.getSchemaLocation().toString().endsWith("/$defs/size/type")
                      ? Sizes.RULE
                      : "must be "
                          + typeWords(schemaNode)
                          + ", not "
                          + typeWord(m.getInstanceNode()));
      default -> ConfigProblem.of(at, value(m.getInstanceNode()), m.getError());
    };
  }

  /** The rule a key of a map with {@code propertyNames} broke, from its pattern and length. */
  private static String nameRule(JsonNode names) {
    String rule = "is not an allowed name: it must match " + names.path("pattern").asText();
    return names.has("maxLength")
        ? rule + " and be at most " + names.get("maxLength").asInt() + " characters"
        : rule;
  }

  /** The JSON pointer of the schema object holding the keyword that failed. */
  private static String parentPointer(ValidationMessage m) {
    String location = m.getSchemaLocation().toString();
    int hash = location.indexOf('#');
    String pointer = hash < 0 ? "" : location.substring(hash + 1);
    int slash = pointer.lastIndexOf('/');
    return slash < 0 ? "" : pointer.substring(0, slash);
  }

  static String path(JsonNodePath location) {
    String path = "";
    for (int i = 0; i < location.getNameCount(); i++) {
      Object element = location.getElement(i);
      path =
          element instanceof Integer index
              ? SourceMap.item(path, index)
              : SourceMap.child(path, String.valueOf(element));
    }
    return path;
  }

  /**
   * The rule of an unknown key at the schema object {@code place}: another product's name is told
   * what Sluice calls it there ({@link ForeignNames}); else the closest known key, if one is close.
   */
  private static String unknownKey(String place, String key, JsonNode known) {
    Optional<ForeignNames.Name> foreign = ForeignNames.at(place, key);
    if (foreign.isPresent()) {
      return foreign.get().rule();
    }
    List<String> names = new ArrayList<>();
    known.fieldNames().forEachRemaining(names::add);
    String closest =
        names.stream()
            .filter(
                n -> key != null && ForeignNames.normalised(n).equals(ForeignNames.normalised(key)))
            .findFirst()
            .or(
                () ->
                    names.stream()
                        .min(Comparator.comparingInt(n -> distance(lower(n), lower(key))))
                        .filter(n -> distance(lower(n), lower(key)) <= 2))
            .map(n -> "did you mean '" + n + "'? ")
            .orElse("");
    return "is not a known key; " + closest + "allowed here: " + String.join(", ", names);
  }

  private static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  private static String requiredOfEach(JsonNode branches) {
    List<String> names = new ArrayList<>();
    branches.forEach(b -> b.path("required").forEach(r -> names.add(r.asText())));
    return String.join(", ", names);
  }

  private static String keys(JsonNode object) {
    List<String> names = new ArrayList<>();
    if (object != null) {
      object.fieldNames().forEachRemaining(names::add);
    }
    return String.join(", ", names);
  }

  private static String keysOrNull(JsonNode object) {
    String keys = keys(object);
    return keys.isEmpty() ? null : keys;
  }

  private static Object value(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    return node.isNumber() ? node.numberValue() : node.toString();
  }

  private static String typeWords(JsonNode type) {
    if (type.isArray()) {
      return String.join(" or ", type.valueStream().map(t -> article(t.asText())).toList());
    }
    return article(type.asText());
  }

  private static String article(String type) {
    return switch (type) {
      case "object" -> "a map";
      case "array" -> "a list";
      case "integer" -> "an integer";
      case "null" -> "empty";
      default -> "a " + type;
    };
  }

  private static String typeWord(JsonNode node) {
    return switch (node.getNodeType()) {
      case OBJECT -> "a map";
      case ARRAY -> "a list";
      case STRING -> "a string";
      case NUMBER -> node.isIntegralNumber() ? "an integer" : "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "empty";
      default -> node.getNodeType().toString().toLowerCase(Locale.ROOT);
    };
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /**
   * The schema with every default, those of the Java builders filled in ({@link SchemaDefaults}):
   * what IDEs and {@code sluice schema} are given. Made when asked for: validating needs no
   * defaults.
   */
  String served() {
    ObjectNode served = tree.deepCopy();
    SchemaDefaults.fill(served, registry);
    try {
      return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(served);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readSchema() {
    try (InputStream in = SchemaValidation.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the sluice-config jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode parse(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
