package io.sluice.core.serialization;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;

/** The level check the JDK codecs share. */
final class CodecLevels {

  private CodecLevels() {}

  /** {@code level}, or {@code fallback} when null; outside min..max a ConfigurationException. */
  static int check(String codec, Integer level, int min, int max, int fallback) {
    if (level == null) {
      return fallback;
    }
    if (level < min || level > max) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "serialization.level",
              level,
              "is not a level of codec '" + codec + "': it takes " + min + " to " + max));
    }
    return level;
  }
}
