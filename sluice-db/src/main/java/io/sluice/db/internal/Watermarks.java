package io.sluice.db.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The values a {@code db-poll} watermark may take (whole and decimal numbers, texts, dates and
 * timestamps, as the drivers give them) and their text in the store: a type and the value ({@code
 * long:42}, {@code timestamp:2024-05-01T10:00:00.123456Z}), so that a watermark is read back with
 * the type it was bound with, whatever serializer the application writes with. A TIMESTAMP without
 * zone comes as a {@link LocalDateTime} ({@link Rows}) and is kept as one ({@code
 * local:2024-05-01T10:00:00.123456}), so a process in another time zone binds the same value; a
 * {@link Timestamp} (a column with a zone, or what an earlier version kept for any timestamp) keeps
 * its instant and nanoseconds.
 */
public final class Watermarks {

  private Watermarks() {}

  /** Whether {@code value} can be a watermark. */
  public static boolean keepable(Object value) {
    return switch (value) {
      case Number n -> true;
      case String s -> true;
      case Timestamp t -> true;
      case java.sql.Date d -> true;
      case LocalDate d -> true;
      case LocalDateTime t -> true;
      case OffsetDateTime t -> true;
      case Instant i -> true;
      default -> false;
    };
  }

  /**
   * {@code value} in the form it is kept and bound in: whole numbers as {@code Long} (a BigInteger
   * beyond it as BigDecimal), other numbers as BigDecimal, an SQL date as a {@link LocalDate}; a
   * text, a timestamp and the java.time values as they are.
   */
  public static Object normal(Object value) {
    return switch (value) {
      case Byte b -> b.longValue();
      case Short s -> s.longValue();
      case Integer i -> i.longValue();
      case BigInteger big ->
          big.bitLength() < Long.SIZE ? (Object) big.longValue() : new BigDecimal(big);
      case Float f -> new BigDecimal(f.toString());
      case Double d -> new BigDecimal(d.toString());
      case java.sql.Date d -> d.toLocalDate();
      default -> value;
    };
  }

  /**
   * The later of two watermarks: {@code next} unless both are of one ordered type and it is lower.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object later(Object current, Object next) {
    if (current != null
        && next != null
        && current.getClass() == next.getClass()
        && current instanceof Comparable c
        && c.compareTo(next) > 0) {
      return current;
    }
    return next;
  }

  /** The watermark as a number for a gauge, or NaN when it is not a number. */
  public static double gauge(Object value) {
    return value instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** {@code value} (normal) as the store keeps it. */
  public static String encode(Object value) {
    return switch (value) {
      case Long l -> "long:" + l;
      case BigDecimal d -> "decimal:" + d.toPlainString();
      case String s -> "text:" + s;
      case Timestamp t -> "timestamp:" + t.toInstant();
      case LocalDate d -> "date:" + d;
      case LocalDateTime t -> "local:" + t;
      case OffsetDateTime t -> "offset:" + t;
      case Instant i -> "instant:" + i;
      default ->
          throw new IllegalArgumentException(
              "a watermark of type "
                  + value.getClass().getName()
                  + " cannot be kept; choose a number, text, date or timestamp column");
    };
  }

  /**
   * The watermark {@code text} ({@link #encode}) holds.
   *
   * @throws IllegalArgumentException when it is not one
   */
  public static Object decode(String text) {
    int colon = text.indexOf(':');
    String type = colon < 0 ? "" : text.substring(0, colon);
    String value = text.substring(colon + 1);
    try {
      return switch (type) {
        case "long" -> Long.parseLong(value);
        case "decimal" -> new BigDecimal(value);
        case "text" -> value;
        case "timestamp" -> Timestamp.from(Instant.parse(value));
        case "date" -> LocalDate.parse(value);
        case "local" -> LocalDateTime.parse(value);
        case "offset" -> OffsetDateTime.parse(value);
        case "instant" -> Instant.parse(value);
        default -> throw new IllegalArgumentException("unknown type '" + type + "'");
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * A watermark written in a configuration file: a text that reads as an ISO date-time with an
   * offset ({@code 2024-05-01T10:00:00Z}) is an {@link OffsetDateTime}, one without ({@code
   * 2024-05-01T10:00:00}) a {@link LocalDateTime}, an ISO date a {@link LocalDate}; any other text
   * stays a text, and a number a number.
   */
  public static Object fromConfig(Object value) {
    if (!(value instanceof String text)) {
      return value == null ? null : normal(value);
    }
    try {
      return OffsetDateTime.parse(text);
    } catch (DateTimeParseException notOffset) {
      // Try the next form.
    }
    try {
      return LocalDateTime.parse(text);
    } catch (DateTimeParseException notLocal) {
      // Try the next form.
    }
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException notDate) {
      return text;
    }
  }
}
