package io.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sluice.config.Secrets;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --output} option of the commands that list or show things: {@code text}, aligned
 * columns for a person (the default), or {@code json}, one JSON document on standard output for a
 * script. The JSON keeps every field the text shows, whole (an error is not cut to its first line)
 * and typed (numbers as numbers, times as ISO-8601 UTC texts, an absent value as null); what a
 * command says besides its listing (a page's footer) is part of the document.
 */
final class OutputOption {

  /** What {@code --output} takes. */
  enum Format {
    text,
    json
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  @Option(
      names = {"-o", "--output"},
      defaultValue = "text",
      paramLabel = "FORMAT",
      description =
          "text (aligned columns, the default) or json (one JSON document on standard output, for"
              + " scripts: every field whole and typed, times in ISO-8601 UTC).")
  Format format = Format.text;

  /** Whether a script asked for JSON. */
  boolean json() {
    return format == Format.json;
  }

  /**
   * Prints {@code document} (maps, lists, texts, numbers, booleans, instants) as one line of JSON,
   * every secret value of the configuration masked as the text output masks it.
   */
  static void print(PrintWriter out, Object document) {
    try {
      out.println(JSON.writeValueAsString(masked(JSON.valueToTree(document))));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the listing as JSON", e);
    }
    out.flush();
  }

  /**
   * {@code node} with every text masked before it is written: a secret holding a quote or a line
   * end would no longer match the mask once escaped.
   */
  private static JsonNode masked(JsonNode node) {
    if (node.isTextual()) {
      return TextNode.valueOf(Secrets.mask(node.textValue()));
    }
    if (node instanceof ObjectNode object) {
      object.properties().forEach(field -> field.setValue(masked(field.getValue())));
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, masked(array.get(i)));
      }
    }
    return node;
  }

  /** An instant as the JSON shows it: ISO-8601 in UTC, null when absent. */
  static String time(Instant instant) {
    return instant == null ? null : instant.toString();
  }

  /** A map keeping the order its fields are put in, for a JSON object. */
  static Map<String, Object> object() {
    return new LinkedHashMap<>();
  }
}
