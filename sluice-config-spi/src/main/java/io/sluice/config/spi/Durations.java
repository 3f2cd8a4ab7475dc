package io.sluice.config.spi;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the durations of configuration files: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h},
 * {@code 7d} (days of 24 hours), or ISO-8601; the command line reads its durations the same way.
 */
public final class Durations {

  private static final Pattern SHORT = Pattern.compile("([0-9]+)(ms|s|m|h|d)");

  private Durations() {}

  /** What a duration looks like, for messages. */
  public static final String RULE =
      "must be a duration: a whole number with a unit (500ms, 30s, 2m, 1h, 7d) or ISO-8601 (PT30S)";

  /** The duration, or null when {@code text} is not one. */
  public static Duration parse(String text) {
    Matcher m = SHORT.matcher(text);
    try {
      if (m.matches()) {
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        };
      }
      return text.startsWith("P") ? Duration.parse(text) : null;
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      return null;
    }
  }
}
