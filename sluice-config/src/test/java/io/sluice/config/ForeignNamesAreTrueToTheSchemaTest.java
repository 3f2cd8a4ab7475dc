package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Keeps foreign-names.yaml true to the schema: its places exist, its names are not Sluice's keys
 * there (when one becomes a key, this fails: the table must say so), and the keys it names exist.
 */
class ForeignNamesAreTrueToTheSchemaTest {

  @Test
  void everyPlaceIsAMapOfTheSchemaThatForbidsUnknownKeys() throws IOException {
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    assertThat(ForeignNames.table().keySet())
        .isNotEmpty()
        .allSatisfy(
            place -> {
              JsonNode at = schema.at(place);
              assertThat(at.path("properties").isObject()).as(place).isTrue();
              assertThat(at.path("additionalProperties").asBoolean(true)).as(place).isFalse();
            });
  }

  @Test
  void noForeignNameIsAKeyOfSluiceAtItsPlace() throws IOException {
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    List<String> taken = new ArrayList<>();
    ForeignNames.table()
        .forEach(
            (place, names) ->
                schema
                    .at(place)
                    .path("properties")
                    .fieldNames()
                    .forEachRemaining(
                        key -> {
                          // Another spelling of the key it points at (vm:listener) is fine.
                          ForeignNames.Name name = names.get(ForeignNames.normalised(key));
                          if (name != null && !key.equals(name.sluice())) {
                            taken.add(place + ": " + key);
                          }
                        }));
    assertThat(taken).as("names that are Sluice's keys now; update foreign-names.yaml").isEmpty();
  }

  @Test
  void everyEntrySaysWhatSluiceCallsItOrWhyItHasNone() throws IOException {
    JsonNode schema = EverySchemaPropertyHasADescriptionTest.schema();
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Map<String, ForeignNames.Name>> place :
        ForeignNames.table().entrySet()) {
      for (ForeignNames.Name name : place.getValue().values()) {
        String where = place.getKey() + " " + name.name();
        if (!Set.of("Mule", "Camunda", "Sluice").contains(name.from())) {
          wrong.add(where + ": from " + name.from());
        }
        if ((name.sluice() == null) == (name.why() == null)) {
          wrong.add(where + ": needs exactly one of sluice and why");
        }
        if (name.sluice() == null && name.note() != null) {
          wrong.add(where + ": a note goes with a sluice key");
        }
        if (name.sluice() != null
            && resolve(schema, schema.at(place.getKey()), name.sluice()) == null) {
          wrong.add(where + ": Sluice has no key " + name.sluice() + " there");
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /** The schema of the dotted {@code path} below {@code object}, following $ref; null if none. */
  private static JsonNode resolve(JsonNode schema, JsonNode object, String path) {
    JsonNode at = object;
    for (String key : path.split("\\.")) {
      while (at.has("$ref")) {
        at = schema.at(at.get("$ref").asText().substring(1));
      }
      at = at.path("properties").get(key);
      if (at == null) {
        return null;
      }
    }
    return at;
  }
}
