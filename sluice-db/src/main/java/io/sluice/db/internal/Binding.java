package io.sluice.db.internal;

import io.sluice.db.DbException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Binds parameter values by position, each through {@link PreparedStatement#setObject}: only values
 * JDBC binds (texts, numbers, booleans, dates and times, UUIDs, bytes, null) are let through, so a
 * map or a list is a {@code DB:BAD_PARAMETER} naming the parameter instead of its {@code
 * toString()} written into a column.
 */
public final class Binding {

  private Binding() {}

  /** Binds {@code values}, the value of each {@code ?} in order, named by {@code names}. */
  public static void bind(
      PreparedStatement statement,
      List<String> names,
      List<Object> values,
      String dataSource,
      String operation)
      throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      bindOne(statement, i + 1, names.get(i), values.get(i), dataSource, operation);
    }
  }

  /** Binds {@code value}, of parameter {@code name}, at {@code position} (from 1). */
  public static void bindOne(
      PreparedStatement statement,
      int position,
      String name,
      Object value,
      String dataSource,
      String operation)
      throws SQLException {
    Object bindable = bindable(name, value, dataSource, operation);
    try {
      statement.setObject(position, bindable);
    } catch (SQLException e) {
      throw badParameter(
          name,
          dataSource,
          operation,
          "its value, " + describe(bindable) + ", could not be bound: " + e.getMessage(),
          e);
    }
  }

  /** The values of {@code names}, in order, taken from {@code element}'s keys. */
  public static List<Object> fromMap(
      List<String> names, Object element, String dataSource, String operation) {
    if (!(element instanceof Map<?, ?> map)) {
      throw new DbException(
          DbException.BAD_PARAMETER,
          dataSource,
          operation,
          null,
          "an element is a "
              + (element == null ? "null" : element.getClass().getName())
              + ", not a map giving the parameters "
              + names
              + " by name; give the operation parameters to take them from each element",
          null);
    }
    return names.stream()
        .map(
            name -> {
              if (!map.containsKey(name)) {
                throw badParameter(
                    name, dataSource, operation, "an element has no key '" + name + "'", null);
              }
              return (Object) map.get(name);
            })
        .toList();
  }

  private static Object bindable(String name, Object value, String dataSource, String operation) {
    return switch (value) {
      case null -> null;
      case String s -> s;
      case Character c -> c.toString();
      case BigInteger big -> new BigDecimal(big);
      case Instant instant -> OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
      case Number n -> n;
      case Boolean b -> b;
      case byte[] bytes -> bytes;
      case UUID uuid -> uuid;
      case LocalDate d -> d;
      case LocalTime t -> t;
      case LocalDateTime t -> t;
      case OffsetDateTime t -> t;
      case OffsetTime t -> t;
      case java.util.Date d -> d;
      default ->
          throw badParameter(
              name,
              dataSource,
              operation,
              "its value is a "
                  + value.getClass().getName()
                  + ", which JDBC cannot bind; give a text, number, boolean, date or time, UUID or"
                  + " bytes",
              null);
    };
  }

  private static String describe(Object value) {
    return value == null ? "null" : "a " + value.getClass().getName();
  }

  private static DbException badParameter(
      String name, String dataSource, String operation, String reason, Throwable cause) {
    return new DbException(
        DbException.BAD_PARAMETER,
        dataSource,
        operation,
        null,
        "parameter '" + name + "': " + reason,
        cause);
  }
}
