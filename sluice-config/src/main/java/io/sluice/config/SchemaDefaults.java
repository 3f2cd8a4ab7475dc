package io.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.config.spi.ByteSize;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The defaults of the schema that the Java builders also have, taken from the builders (those of
 * the components from their {@code defaults()}): the schema files leave them out and {@link #fill}
 * writes them in, so {@code sluice schema}, the guide's tables and what a builder does with an
 * unset value cannot disagree. Defaults only the YAML has (a logger's message template, {@code
 * threads: auto}) stay written in the schema file.
 */
final class SchemaDefaults {

  private SchemaDefaults() {}

  private static final String PROFILE = "/$defs/threadingProfile/properties/";
  private static final String AUTO = "/$defs/strategy/properties/auto/properties/";

  /** Schema pointer of a property to the Java default it takes. */
  static Map<String, Object> table() {
    return table(ComponentRegistry.INSTANCE);
  }

  /** Schema pointer of a property to the Java default it takes, with those of {@code registry}. */
  static Map<String, Object> table(ComponentRegistry registry) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/sluice/properties/shutdownTimeout", Application.DEFAULT_SHUTDOWN_TIMEOUT);
    d.put("/properties/sluice/properties/vmQueueCapacity", Application.DEFAULT_VM_QUEUE_CAPACITY);

    d.put("/properties/serialization/properties/default", SerializationConfig.DEFAULT_NAME);
    d.put(
        "/properties/serialization/properties/maxSize",
        new ByteSize(SerializationConfig.DEFAULT_MAX_SIZE));
    d.put("/properties/serialization/properties/maxDepth", SerializationConfig.DEFAULT_MAX_DEPTH);
    d.put("/$defs/namedSerializer/properties/codec", SerializationConfig.DEFAULT_CODEC);

    ProcessingStrategy.Auto auto = ProcessingStrategy.Auto.DEFAULT;
    d.put(AUTO + "maxInFlight", auto.maxInFlight());
    d.put(AUTO + "backpressure", auto.backpressure());
    d.put(AUTO + "waitTimeout", auto.waitTimeout());
    d.put(AUTO + "initialLimit", auto.initialLimit());
    d.put(AUTO + "maxLimit", auto.maxLimit());

    ThreadingProfile profile = ThreadingProfile.DEFAULT;
    d.put(PROFILE + "maxThreadsActive", profile.maxThreadsActive());
    d.put(PROFILE + "maxQueue", profile.maxQueue());
    d.put(PROFILE + "exhaustedAction", profile.exhaustedAction());
    d.put(PROFILE + "waitTimeout", profile.waitTimeout());
    d.put(PROFILE + "idleTtl", profile.idleTtl());
    d.put(PROFILE + "maxThreadsIdle", profile.maxThreadsIdle());

    d.putAll(SchemaAssembly.defaults(registry));
    return d;
  }

  /**
   * Writes each default of {@link #table()} into {@code schema}; fails when the schema file names
   * one itself (a second place) or a pointer names no property.
   */
  static void fill(ObjectNode schema, ComponentRegistry registry) {
    table(registry)
        .forEach(
            (pointer, value) -> {
              JsonNode property = schema.at(pointer);
              if (!(property instanceof ObjectNode object)) {
                throw new IllegalStateException("the schema has no property at " + pointer);
              }
              if (object.has("default")) {
                throw new IllegalStateException(
                    "the schema file writes the default of "
                        + pointer
                        + ", which comes from the Java builders: leave it out of the file");
              }
              object.set("default", json(value));
            });
  }

  /** {@code value} as the YAML file would write it. */
  static JsonNode json(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return switch (value) {
      case Duration duration -> nodes.textNode(duration(duration));
      case ByteSize size -> nodes.textNode(size(size.bytes()));
      case Integer number -> whole(number);
      case Long number -> whole(number);
      case Double number ->
          number == Math.rint(number) ? whole(number.longValue()) : nodes.numberNode(number);
      case Boolean flag -> nodes.booleanNode(flag);
      case Enum<?> constant -> nodes.textNode(constant.name());
      case List<?> list -> {
        ArrayNode array = nodes.arrayNode();
        list.forEach(item -> array.add(json(item)));
        yield array;
      }
      default -> nodes.textNode(value.toString());
    };
  }

  /** A whole number as a parser reads it back: an int when it fits (2, not 2.0 or 2L). */
  private static JsonNode whole(long number) {
    return number == (int) number
        ? JsonNodeFactory.instance.numberNode((int) number)
        : JsonNodeFactory.instance.numberNode(number);
  }

  /** A duration as the guide writes it: the largest of h, m, s, ms that divides it. */
  static String duration(Duration value) {
    long millis = value.toMillis();
    if (millis == 0) {
      return "0s";
    }
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  /** A size as the guide writes it: the largest of GB, MB, KB that divides it, else bytes. */
  static String size(long bytes) {
    String[] units = {"GB", "MB", "KB"};
    for (int i = 0; i < units.length; i++) {
      long scale = 1L << (10 * (units.length - i));
      if (bytes != 0 && bytes % scale == 0) {
        return bytes / scale + units[i];
      }
    }
    return bytes + "B";
  }
}
