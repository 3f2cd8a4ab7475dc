package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sluice.config.spi.ComponentKind;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.core.SluiceException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the schema files are checked against: the frame shipped in {@code sluice.schema.json} (the
 * top level, the flow's shape, the common definitions) with each component's fragment inserted
 * where its kind is written, and {@code ${sources}} in descriptions replaced by the sources found.
 */
final class SchemaAssembly {

  /** {@code ${sources}} ("a, b or c") or {@code ${sources|, }} ("a, b, c"). */
  private static final Pattern KEYS = Pattern.compile("\\$\\{sources(?:\\|([^}]*))?}");

  /** The definition of a batch job's {@code input:}, where the batch input kinds' keys go. */
  private static final String BATCH_INPUT = "/$defs/batchInput";

  /** The pointer of {@code sluice.store}, where the store types' keys go. */
  private static final String STORE = "/properties/sluice/properties/store";

  private SchemaAssembly() {}

  /** The frame with the components of {@code registry}; the frame itself is left as it is. */
  static ObjectNode assemble(JsonNode frame, ComponentRegistry registry) {
    ObjectNode schema = frame.deepCopy();
    ObjectNode defs = (ObjectNode) schema.get("$defs");
    Map<ConfigComponent<?>, ObjectNode> batchInputs = new LinkedHashMap<>();
    for (ConfigComponent<?> component : registry.all()) {
      ObjectNode fragment = component.schema().deepCopy();
      JsonNode own = fragment.remove("$defs");
      if (own != null) {
        join(defs, own, component, "defines $defs/", ", which is defined otherwise already");
      }
      if (component.kind() == ComponentKind.STORE) {
        addStore(schema, component, fragment);
      } else if (component.kind() == ComponentKind.BATCH_INPUT) {
        batchInputs.put(component, fragment); // once every $defs is in: the batch module's too
      } else {
        ((ObjectNode) schema.at(parent(component))).set(name(component), fragment);
      }
    }
    batchInputs.forEach((component, fragment) -> addBatchInput(schema, component, fragment));
    nameBatchInputs(schema);
    addStoreTypes(schema, registry);
    fillAbsentProcessors(schema, registry);
    List<String> sources = new ArrayList<>(registry.sources().keySet());
    replaceKeys(schema, sources);
    return schema;
  }

  private static final String PROCESSOR_REF = "#/$defs/processor/properties/";

  /**
   * A fragment may take another component's keys by reference ({@code read:} in a source refers to
   * the {@code read} processor's schema); where no module brings that component, the reference is
   * replaced by a refusal of any value, saying which processor it needs, so the schema stays whole.
   */
  private static void fillAbsentProcessors(JsonNode node, ComponentRegistry registry) {
    if (node instanceof ObjectNode object) {
      JsonNode ref = object.get("$ref");
      if (ref != null && ref.isTextual() && ref.asText().startsWith(PROCESSOR_REF)) {
        String kind = ref.asText().substring(PROCESSOR_REF.length());
        if (!registry.processors().containsKey(kind)) {
          object.remove("$ref");
          object.set("not", object.objectNode());
          object.put(
              "description",
              object.path("description").asText()
                  + " (The '"
                  + kind
                  + "' processor is not installed here.)");
        }
      }
    }
    node.forEach(child -> fillAbsentProcessors(child, registry));
  }

  /**
   * A store type's keys join {@code sluice.store}'s properties (a key two types share must be
   * described alike), and its name joins the values of {@code sluice.store.type}, in the order of
   * {@link ComponentRegistry#stores()}.
   */
  private static void addStore(ObjectNode schema, ConfigComponent<?> store, ObjectNode fragment) {
    join(
        (ObjectNode) schema.at(STORE + "/properties"),
        fragment.path("properties"),
        store,
        "describes sluice.store.",
        " otherwise than another store type does");
  }

  /**
   * Puts each member of {@code from} into {@code into}; a member already there must be equal, or
   * the component's class name, {@code what}, the member's name and {@code otherwise} say why not.
   */
  private static void join(
      ObjectNode into, JsonNode from, ConfigComponent<?> component, String what, String otherwise) {
    from.properties()
        .forEach(
            member -> {
              JsonNode earlier = into.get(member.getKey());
              if (earlier != null && !earlier.equals(member.getValue())) {
                throw new SluiceException(
                    component.getClass().getName() + " " + what + member.getKey() + otherwise);
              }
              into.set(member.getKey(), member.getValue());
            });
  }

  /**
   * A batch input kind's key joins {@code batchInput}'s properties and its exactly-one-of rule (a
   * {@code oneOf} branch requiring it, described as the fragment is).
   */
  private static void addBatchInput(
      ObjectNode schema, ConfigComponent<?> component, ObjectNode fragment) {
    if (!(schema.at(BATCH_INPUT) instanceof ObjectNode input)) {
      throw new SluiceException(
          component.getClass().getName()
              + " is a batch input, and no module on the class path defines batch jobs"
              + " ($defs/batchInput)");
    }
    ObjectNode properties = (ObjectNode) input.get("properties");
    if (properties.has(component.key())) {
      throw new SluiceException(
          component.getClass().getName()
              + " defines the batch input "
              + component.key()
              + ", which is defined otherwise already");
    }
    properties.set(component.key(), fragment);
    ObjectNode branch = ((ArrayNode) input.get("oneOf")).addObject();
    branch.put("description", fragment.path("description").asText(component.key()));
    branch.putArray("required").add(component.key());
  }

  /** {@code ${batchInputs}} in {@code batchInput}'s description: its kinds, "a, b or c". */
  private static void nameBatchInputs(ObjectNode schema) {
    if (schema.at(BATCH_INPUT) instanceof ObjectNode input
        && input.path("description").asText().contains("${batchInputs}")) {
      List<String> kinds = new ArrayList<>();
      input.path("oneOf").forEach(branch -> kinds.add(branch.path("required").path(0).asText()));
      input.put(
          "description",
          input
              .path("description")
              .asText()
              .replace("${batchInputs}", ComponentRegistry.either(kinds, " or ")));
    }
  }

  /** The store types' names as the values of {@code sluice.store.type}. */
  private static void addStoreTypes(ObjectNode schema, ComponentRegistry registry) {
    ObjectNode type = (ObjectNode) schema.at(STORE + "/properties/type");
    ArrayNode names = type.putArray("enum");
    registry.stores().keySet().forEach(names::add);
  }

  /** Where the component's schema goes, as a JSON pointer. */
  static String pointer(ConfigComponent<?> component) {
    return component.kind() == ComponentKind.STORE
        ? STORE
        : parent(component) + "/" + name(component);
  }

  /** The JSON pointer of the properties object the component's schema goes into. */
  private static String parent(ConfigComponent<?> component) {
    return switch (component.kind()) {
      case SOURCE -> "/$defs/source/properties";
      case PROCESSOR, ROUTER -> "/$defs/processor/properties";
      case BATCH_INPUT -> BATCH_INPUT + "/properties";
      case SECTION -> {
        String key = component.key();
        int dot = key.lastIndexOf('.');
        String parent =
            dot < 0 ? "" : "/properties/" + key.substring(0, dot).replace(".", "/properties/");
        yield parent + "/properties";
      }
      default ->
          throw new SluiceException(
              component.kind() + " components have no place in the schema yet");
    };
  }

  private static String name(ConfigComponent<?> component) {
    String key = component.key();
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /**
   * The defaults components take from their builders, by pointer into the assembled schema: a
   * pointer into a component's {@code $defs} is the schema's own.
   */
  static Map<String, Object> defaults(ComponentRegistry registry) {
    Map<String, Object> defaults = new LinkedHashMap<>();
    for (ConfigComponent<?> component : registry.all()) {
      component
          .defaults()
          .forEach(
              (pointer, value) ->
                  defaults.put(
                      pointer.startsWith("/$defs/") ? pointer : pointer(component) + pointer,
                      value));
    }
    return defaults;
  }

  private static void replaceKeys(JsonNode node, List<String> sources) {
    if (node instanceof ObjectNode object) {
      for (Map.Entry<String, JsonNode> property : new ArrayList<>(object.properties())) {
        if (property.getValue() instanceof TextNode text && text.asText().contains("${")) {
          Matcher m = KEYS.matcher(text.asText());
          object.put(
              property.getKey(),
              m.replaceAll(
                  r ->
                      Matcher.quoteReplacement(
                          ComponentRegistry.either(
                              sources, r.group(1) == null ? " or " : r.group(1)))));
        } else {
          replaceKeys(property.getValue(), sources);
        }
      }
    } else if (node.isArray()) {
      node.forEach(item -> replaceKeys(item, sources));
    }
  }
}
