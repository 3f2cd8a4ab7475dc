package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sluice.config.spi.ConfigComponent;
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

  private SchemaAssembly() {}

  /** The frame with the components of {@code registry}; the frame itself is left as it is. */
  static ObjectNode assemble(JsonNode frame, ComponentRegistry registry) {
    ObjectNode schema = frame.deepCopy();
    ObjectNode defs = (ObjectNode) schema.get("$defs");
    for (ConfigComponent<?> component : registry.all()) {
      ObjectNode fragment = component.schema().deepCopy();
      JsonNode own = fragment.remove("$defs");
      if (own != null) {
        own.properties()
            .forEach(
                def -> {
                  JsonNode earlier = defs.get(def.getKey());
                  if (earlier != null && !earlier.equals(def.getValue())) {
                    throw new IllegalStateException(
                        component.getClass().getName()
                            + " defines $defs/"
                            + def.getKey()
                            + ", which is defined otherwise already");
                  }
                  defs.set(def.getKey(), def.getValue());
                });
      }
      ((ObjectNode) schema.at(parent(component))).set(name(component), fragment);
    }
    List<String> sources = new ArrayList<>(registry.sources().keySet());
    replaceKeys(schema, sources);
    return schema;
  }

  /** Where the component's schema goes, as a JSON pointer. */
  static String pointer(ConfigComponent<?> component) {
    return parent(component) + "/" + name(component);
  }

  /** The JSON pointer of the properties object the component's schema goes into. */
  private static String parent(ConfigComponent<?> component) {
    return switch (component.kind()) {
      case SOURCE -> "/$defs/source/properties";
      case PROCESSOR, ROUTER -> "/$defs/processor/properties";
      case SECTION -> {
        String key = component.key();
        int dot = key.lastIndexOf('.');
        String parent =
            dot < 0 ? "" : "/properties/" + key.substring(0, dot).replace(".", "/properties/");
        yield parent + "/properties";
      }
      default ->
          throw new IllegalStateException(
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
