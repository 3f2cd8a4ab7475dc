package io.sluice.formats.config;

import io.sluice.config.spi.ConfigNode;

/** The one-character keys of CSV: {@code separator} and {@code quote}. */
final class Characters {

  private Characters() {}

  /** The character at {@code key}, {@code defaultValue} when absent; else a problem. */
  static char of(ConfigNode node, String key, char defaultValue) {
    String text = node.text(key, null);
    if (text == null) {
      return defaultValue;
    }
    if (text.length() != 1) {
      node.problems().add(node.get(key).path(), text, "must be one character");
      return defaultValue;
    }
    return text.charAt(0);
  }
}
