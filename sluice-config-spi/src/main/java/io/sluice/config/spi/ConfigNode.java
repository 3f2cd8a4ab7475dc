package io.sluice.config.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.sluice.core.ConfigProblems;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A node of the configuration tree with its dotted path, read with defaults. A value of the wrong
 * kind is recorded as a problem and replaced by the default so that mapping can go on; the schema
 * has normally reported it already, and the duplicate is dropped.
 */
public record ConfigNode(JsonNode node, String path, ProblemCollector problems) {

  /** The child at {@code key}, a missing node when it is not written. */
  public ConfigNode get(String key) {
    JsonNode child = node.path(key);
    return new ConfigNode(child, SourceMap.child(path, key), problems);
  }

  /** Whether the key is written with a value. */
  public boolean has(String key) {
    JsonNode child = node.get(key);
    return child != null && !child.isNull();
  }

  /** Whether this node is written with a value. */
  public boolean isPresent() {
    return !node.isMissingNode() && !node.isNull();
  }

  /** The text at {@code key}, or {@code defaultValue} when absent; a map or list is a problem. */
  public String text(String key, String defaultValue) {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return defaultValue;
    }
    if (value.isValueNode()) {
      return value.asText();
    }
    problems.add(SourceMap.child(path, key), value.toString(), "must be a text");
    return defaultValue;
  }

  /** The boolean at {@code key}, or {@code defaultValue} when absent or not a boolean. */
  public boolean bool(String key, boolean defaultValue) {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return defaultValue;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    problems.add(SourceMap.child(path, key), value.asText(), "must be true or false");
    return defaultValue;
  }

  /** The whole number at {@code key}, or {@code defaultValue} when absent or not an int. */
  public int integer(String key, int defaultValue) {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return defaultValue;
    }
    if (value.isIntegralNumber() && value.canConvertToInt()) {
      return value.intValue();
    }
    problems.add(
        SourceMap.child(path, key),
        value.asText(),
        "must be a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE);
    return defaultValue;
  }

  /** The number at {@code key}, or {@code defaultValue} when absent or not a number. */
  public double decimal(String key, double defaultValue) {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return defaultValue;
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    problems.add(SourceMap.child(path, key), value.asText(), "must be a number");
    return defaultValue;
  }

  /** A duration of at most {@link ConfigProblems#MAX_DURATION}, one day. */
  public Duration duration(String key, Duration defaultValue) {
    return duration(key, defaultValue, ConfigProblems.MAX_DURATION);
  }

  /**
   * A duration of at most {@code max}; a longer one is a problem, and {@code max} is returned in
   * its place so that the builders it goes to do not report it again.
   */
  public Duration duration(String key, Duration defaultValue, Duration max) {
    String text = text(key, null);
    if (text == null) {
      return defaultValue;
    }
    Duration value = Durations.parse(text);
    if (value == null) {
      problems.add(SourceMap.child(path, key), text, Durations.RULE);
      return defaultValue;
    }
    if (value.compareTo(max) > 0) {
      problems.add(SourceMap.child(path, key), text, "must be at most " + ConfigProblems.text(max));
      return max;
    }
    return value;
  }

  /** A size in bytes ({@link Sizes}), or {@code defaultValue} when absent or not a size. */
  public long size(String key, long defaultValue) {
    String text = text(key, null);
    if (text == null) {
      return defaultValue;
    }
    Long value = Sizes.parse(text);
    if (value == null) {
      problems.add(SourceMap.child(path, key), text, Sizes.RULE);
      return defaultValue;
    }
    return value;
  }

  /**
   * The constant of {@code type} named at {@code key} (in any case), or {@code defaultValue} when
   * absent or no constant.
   */
  public <E extends Enum<E>> E enumValue(String key, Class<E> type, E defaultValue) {
    String text = text(key, null);
    if (text == null) {
      return defaultValue;
    }
    try {
      return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      problems.add(
          SourceMap.child(path, key),
          text,
          "must be one of: "
              + String.join(", ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList()));
      return defaultValue;
    }
  }

  /** The texts of the list at {@code key}; absent means empty. */
  public List<String> texts(String key) {
    List<String> values = new ArrayList<>();
    for (ConfigNode item : items(key)) {
      values.add(item.node.asText());
    }
    return values;
  }

  /** The items of a list; absent means empty. */
  public List<ConfigNode> items(String key) {
    return get(key).items();
  }

  /** The items of this list; absent means empty. */
  public List<ConfigNode> items() {
    List<ConfigNode> items = new ArrayList<>();
    if (!isPresent()) {
      return items;
    }
    if (!node.isArray()) {
      problems.add(path, node.toString(), "must be a list");
      return items;
    }
    for (int i = 0; i < node.size(); i++) {
      items.add(new ConfigNode(node.get(i), SourceMap.item(path, i), problems));
    }
    return items;
  }

  /**
   * The one key of a map that must hold exactly one ({@code - logger: {...}}), with its value as a
   * node (an empty map when the value is empty); null after recording a problem otherwise.
   */
  public Map.Entry<String, ConfigNode> single() {
    if (!node.isObject() || node.size() != 1) {
      problems.add(path, node.toString(), "must hold exactly one key naming its kind");
      return null;
    }
    Map.Entry<String, JsonNode> only = node.properties().iterator().next();
    JsonNode value = only.getValue().isNull() ? MissingNode.getInstance() : only.getValue();
    return Map.entry(
        only.getKey(), new ConfigNode(value, SourceMap.child(path, only.getKey()), problems));
  }
}
