package io.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.jobs.spi.NewJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.TypeConversionException;

/**
 * Jobs to create, read from JSON lines: one object per line with {@code type} and {@code payload},
 * and optionally {@code priority}, {@code due}, {@code retries} and {@code key}, as the options of
 * {@code sluice jobs create} say. Every line is checked before any job is created, so that a file
 * with a bad line creates nothing; each bad line is named by its number. Blank lines are skipped.
 */
final class JobLines {

  /** The fields a line may have. */
  static final List<String> FIELDS =
      List.of("type", "payload", "priority", "due", "retries", "key", "exclusiveKey");

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JobLines() {}

  /** One line's job; its {@code due} (null: now) is resolved on the store's clock. */
  record Line(int number, NewJob job, JobsCreateCommand.Due due) {}

  /** The lines read: their jobs, in order, and a problem for each bad line ({@code name:3: …}). */
  record Read(List<Line> lines, List<String> problems) {}

  /** Reads every line of {@code reader}, naming it {@code name} in problems. */
  static Read read(String name, BufferedReader reader) throws IOException {
    List<Line> lines = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int number = 0;
    for (String text = reader.readLine(); text != null; text = reader.readLine()) {
      number++;
      if (text.isBlank()) {
        continue;
      }
      try {
        lines.add(line(number, text));
      } catch (IllegalArgumentException | TypeConversionException e) {
        problems.add(name + ":" + number + ": " + e.getMessage());
      }
    }
    return new Read(lines, problems);
  }

  private static Line line(int number, String text) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "is not JSON: " + e.getOriginalMessage() + "; each line is one JSON object");
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "is not a JSON object; each line is one, such as {\"type\": \"send\", \"payload\": \"x\"}");
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      if (!FIELDS.contains(field.getKey())) {
        throw new IllegalArgumentException(
            "'"
                + field.getKey()
                + "' is not a field of a job; its fields: "
                + String.join(", ", FIELDS));
      }
    }
    JsonNode type = node.get("type");
    if (type == null || !type.isTextual()) {
      throw new IllegalArgumentException("type is required: a text, the job type");
    }
    JsonNode payload = node.get("payload");
    if (payload == null || payload.isNull()) {
      throw new IllegalArgumentException(
          "payload is required: a text, or any JSON value (a map, list, number or boolean)");
    }
    NewJob job =
        NewJob.of(type.asText(), value(payload))
            .withPriority(integer(node, "priority", NewJob.MIN_PRIORITY))
            .withMaxRetries(integer(node, "retries", NewJob.DEFAULT_MAX_RETRIES))
            .withUniqueKey(text(node, "key"))
            .withExclusiveKey(text(node, "exclusiveKey"));
    String due = text(node, "due");
    return new Line(
        number, job, due == null ? null : new JobsCreateCommand.DueConverter().convert(due));
  }

  /** The payload as the handler gets it: a text as it is, other JSON as maps, lists, numbers. */
  private static Object value(JsonNode payload) {
    try {
      return JSON.treeToValue(payload, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("payload cannot be read: " + e.getOriginalMessage());
    }
  }

  private static int integer(JsonNode node, String field, int absent) {
    JsonNode value = node.get(field);
    if (value == null) {
      return absent;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw new IllegalArgumentException(field + " must be a whole number, was " + value);
    }
    return value.intValue();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(field + " must be a text, was " + value);
    }
    return value.asText();
  }
}
