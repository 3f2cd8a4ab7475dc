package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EverySchemaPropertyHasADescriptionTest {

  static JsonNode schema() throws IOException {
    return new ObjectMapper().readTree(ConfigLoader.schema());
  }

  @Test
  void everyPropertyAndDefinitionHasADescription() throws IOException {
    List<String> undescribed = new ArrayList<>();
    walk(schema(), "#", undescribed);
    assertThat(undescribed).isEmpty();
  }

  @Test
  void everyObjectForbidsUnknownKeys() throws IOException {
    List<String> open = new ArrayList<>();
    forEachSchema(
        schema(),
        "#",
        (pointer, node) -> {
          if (node.has("properties") && !node.path("additionalProperties").isBoolean()) {
            open.add(pointer);
          }
        });
    assertThat(open).isEmpty();
  }

  @Test
  void theSchemaIsValidDraft202012() {
    var metaSchema =
        JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    assertThat(metaSchema.validate(ConfigLoader.schema(), InputFormat.JSON)).isEmpty();
  }

  private static void walk(JsonNode node, String pointer, List<String> undescribed) {
    forEachSchema(
        node,
        pointer,
        (at, schema) -> {
          if (!at.endsWith("/items") && !schema.path("description").isTextual()) {
            undescribed.add(at);
          }
        });
  }

  /** Calls {@code visit} on every property, definition and item schema, depth first. */
  static void forEachSchema(
      JsonNode node, String pointer, java.util.function.BiConsumer<String, JsonNode> visit) {
    visit.accept(pointer, node);
    for (String container : List.of("properties", "$defs")) {
      for (Map.Entry<String, JsonNode> child : node.path(container).properties()) {
        forEachSchema(child.getValue(), pointer + "/" + container + "/" + child.getKey(), visit);
      }
    }
    if (node.path("items").isObject()) {
      forEachSchema(node.get("items"), pointer + "/items", visit);
    }
    for (int i = 0; i < node.path("oneOf").size(); i++) {
      forEachSchema(node.get("oneOf").get(i), pointer + "/oneOf/" + i, visit);
    }
  }
}
