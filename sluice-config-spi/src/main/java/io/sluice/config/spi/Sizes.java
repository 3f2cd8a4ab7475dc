package io.sluice.config.spi;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the sizes of configuration files: bytes as a whole number ({@code 1048576}), or with a unit
 * {@code B}, {@code KB}, {@code MB} or {@code GB}, 1024-based ({@code 64MB} is 67108864 bytes).
 */
public final class Sizes {

  /** The rule a size breaks, in words. */
  public static final String RULE =
      "must be a size: bytes as a whole number, or a whole number with a unit B, KB, MB or GB"
          + " (1024-based: 64MB)";

  private static final Pattern SIZE = Pattern.compile("([0-9]+)(B|KB|MB|GB)?");

  private Sizes() {}

  /** The size in bytes, or null when {@code text} is not one (or overflows a long). */
  public static Long parse(String text) {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    int shift =
        switch (m.group(2) == null ? "B" : m.group(2)) {
          case "KB" -> 10;
          case "MB" -> 20;
          case "GB" -> 30;
          default -> 0;
        };
    try {
      long number = Long.parseLong(m.group(1));
      return number > Long.MAX_VALUE >> shift ? null : number << shift;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
