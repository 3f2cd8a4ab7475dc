package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The names Mule and Camunda users bring with them, per place of the schema, read from the one
 * table {@value #RESOURCE}: an unknown key found there is answered with what Sluice calls it at
 * that place, or why Sluice has no such setting, rather than only "not a known key".
 */
final class ForeignNames {

  static final String RESOURCE = "foreign-names.yaml";

  /**
   * One name of another product at one place.
   *
   * @param name the name as the other product writes it
   * @param from {@code Mule}, {@code Camunda}, or {@code Sluice} for a Sluice key at the wrong
   *     place
   * @param sluice the key Sluice has for it at this place (a dotted path below it), or null
   * @param note what differs (unit, scope), or null
   * @param why why Sluice has no such setting, when {@code sluice} is null
   */
  record Name(String name, String from, String sluice, String note, String why) {

    /** The rule of a problem at this name: what it is, and what Sluice has instead. */
    String rule() {
      String detail = note == null ? "" : " (" + note + ")";
      if (from.equals("Sluice")) {
        return "is not a key here; Sluice has it at '" + sluice + "'" + detail;
      }
      if (sluice != null) {
        return "is not a known key; that is "
            + from
            + "'s name; Sluice calls it '"
            + sluice
            + "'"
            + detail;
      }
      return "is not a known key; that is "
          + from
          + "'s name, and Sluice has no such setting: "
          + why;
    }
  }

  /** Place (a JSON pointer into the schema) to normalised name to entry. */
  private static final Map<String, Map<String, Name>> TABLE = load();

  private ForeignNames() {}

  /** The entry for {@code key} at the schema object {@code place}, if it is another's name. */
  static Optional<Name> at(String place, String key) {
    return key == null
        ? Optional.empty()
        : Optional.ofNullable(TABLE.getOrDefault(place, Map.of()).get(normalised(key)));
  }

  /** The whole table, by place: for the tests that keep it true to the schema. */
  static Map<String, Map<String, Name>> table() {
    return TABLE;
  }

  /**
   * {@code key} without case and the separators products differ in ({@code -}, {@code _}, {@code
   * .}, {@code :}): Camunda's Spring Boot {@code max-jobs-per-acquisition} is its {@code
   * maxJobsPerAcquisition}.
   */
  static String normalised(String key) {
    return key.toLowerCase(Locale.ROOT).replaceAll("[-_.:]", "");
  }

  private static Map<String, Map<String, Name>> load() {
    JsonNode tree;
    try (InputStream in = ForeignNames.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the sluice-config jar");
      }
      tree = new ObjectMapper(new YAMLFactory()).readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Map<String, Name>> table = new LinkedHashMap<>();
    tree.properties()
        .forEach(
            place -> {
              Map<String, Name> names = new LinkedHashMap<>();
              place
                  .getValue()
                  .properties()
                  .forEach(
                      entry -> {
                        JsonNode e = entry.getValue();
                        Name name =
                            new Name(
                                entry.getKey(),
                                e.path("from").asText(),
                                text(e, "sluice"),
                                text(e, "note"),
                                text(e, "why"));
                        if (names.put(normalised(name.name()), name) != null) {
                          throw new IllegalStateException(
                              RESOURCE + " names " + name.name() + " twice at " + place.getKey());
                        }
                      });
              table.put(place.getKey(), Map.copyOf(names));
            });
    return Map.copyOf(table);
  }

  private static String text(JsonNode entry, String field) {
    JsonNode value = entry.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
