package io.sluice.bench;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * The values the serialization benchmarks store, built from fixed seeds so every run and every
 * serializer sees the same bytes: a 1 KB map of strings (message properties), an order with 1,000
 * line items, a 1 MiB string of JSON-ish order lines (compresses like real text, not like one
 * repeated character) and a 1 MiB byte array of random bytes (a binary payload, incompressible).
 */
public final class SerializationShapes {

  /** One mebibyte: the size of the big string (in UTF-8 bytes) and of the byte array. */
  public static final int MIB = 1024 * 1024;

  /** The shape names, as the benchmarks' {@code shape} parameter takes them. */
  public static final List<String> NAMES = List.of("map1k", "order1000", "string1m", "bytes1m");

  private SerializationShapes() {}

  /** An order line. Serializable so the JDK serializer can write it. */
  public record LineItem(String sku, int quantity, BigDecimal price) implements Serializable {}

  /** An order: customer, timestamps and its line items. */
  public record Order(
      String id, String customer, Instant created, Instant updated, List<LineItem> items)
      implements Serializable {}

  /** The value for a shape name. */
  public static Object value(String shape) {
    return switch (shape) {
      case "map1k" -> map1k();
      case "order1000" -> order(1_000);
      case "string1m" -> text(MIB);
      case "bytes1m" -> bytes(MIB);
      default -> throw new IllegalArgumentException("Unknown shape '" + shape + "': " + NAMES);
    };
  }

  /** Whether a value read back equals the one written (arrays by content). */
  public static boolean sameValue(Object written, Object read) {
    if (written instanceof byte[] a && read instanceof byte[] b) {
      return Arrays.equals(a, b);
    }
    return Objects.equals(written, read);
  }

  /**
   * Message properties: 20 entries whose keys and values hold about 1 KB of characters, in
   * insertion order.
   */
  public static Map<String, String> map1k() {
    Random random = new Random(1);
    Map<String, String> map = new LinkedHashMap<>();
    int chars = 0;
    for (int i = 0; chars < 1024; i++) {
      String key = "property-" + i;
      String value = "value-" + Long.toHexString(random.nextLong()) + "-" + randomWord(random, 20);
      map.put(key, value);
      chars += key.length() + value.length();
    }
    return map;
  }

  /** An order with {@code items} line items. */
  public static Order order(int items) {
    Random random = new Random(2);
    List<LineItem> lines = new ArrayList<>(items);
    for (int i = 0; i < items; i++) {
      lines.add(
          new LineItem(
              "SKU-" + (100_000 + random.nextInt(900_000)),
              1 + random.nextInt(20),
              BigDecimal.valueOf(100 + random.nextInt(99_900), 2)));
    }
    Instant created = Instant.parse("2025-03-14T09:26:53.589Z");
    return new Order(
        "ORD-2025-0042", "customer-417@example.com", created, created.plusSeconds(3_600), lines);
  }

  /** A string of JSON-ish order lines, exactly {@code length} ASCII characters (= UTF-8 bytes). */
  public static String text(int length) {
    Random random = new Random(3);
    String[] statuses = {"NEW", "PAID", "PICKED", "SHIPPED", "DELIVERED"};
    StringBuilder text = new StringBuilder(length + 256);
    for (int i = 0; text.length() < length; i++) {
      text.append("{\"order\":\"ORD-")
          .append(1_000_000 + random.nextInt(50_000))
          .append("\",\"line\":")
          .append(i % 40)
          .append(",\"sku\":\"SKU-")
          .append(100_000 + random.nextInt(900_000))
          .append("\",\"qty\":")
          .append(1 + random.nextInt(20))
          .append(",\"price\":\"")
          .append(BigDecimal.valueOf(100 + random.nextInt(99_900), 2))
          .append("\",\"status\":\"")
          .append(statuses[random.nextInt(statuses.length)])
          .append("\",\"customer\":\"customer-")
          .append(random.nextInt(5_000))
          .append("@example.com\"}\n");
    }
    text.setLength(length);
    return text.toString();
  }

  /** The UTF-8 bytes of {@link #text(int)}. */
  public static byte[] textBytes(int length) {
    return text(length).getBytes(StandardCharsets.UTF_8);
  }

  /** {@code length} random bytes. */
  public static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    new Random(4).nextBytes(bytes);
    return bytes;
  }

  private static String randomWord(Random random, int length) {
    char[] chars = new char[length];
    for (int i = 0; i < length; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }
}
