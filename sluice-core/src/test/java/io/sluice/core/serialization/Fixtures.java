package io.sluice.core.serialization;

import io.sluice.core.spi.ObjectSerializer;
import io.sluice.core.spi.SerializerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Values and a second serializer for the serialization tests. */
final class Fixtures {

  private Fixtures() {}

  record Address(String street, String city) implements Serializable {}

  record Customer(String name, Address address, List<String> tags) implements Serializable {}

  /** A plain mutable class with a nested object and a cycle-free graph. */
  static final class Basket implements Serializable {
    String owner;
    Customer customer;
    Map<String, Integer> counts = new HashMap<>();
    int[] sizes;

    @Override
    public boolean equals(Object o) {
      return o instanceof Basket b
          && Objects.equals(owner, b.owner)
          && Objects.equals(customer, b.customer)
          && counts.equals(b.counts)
          && Arrays.equals(sizes, b.sizes);
    }

    @Override
    public int hashCode() {
      return Objects.hash(owner, customer, counts);
    }
  }

  static Basket basket() {
    Basket basket = new Basket();
    basket.owner = "Zoë";
    basket.customer =
        new Customer("Ada", new Address("Rue de l'Été 1", "Zürich"), List.of("vip", "東京"));
    basket.counts.put("apples", 3);
    basket.counts.put("pears", 0);
    basket.sizes = new int[] {1, 2, 3};
    return basket;
  }

  /** Every value the round-trip tests carry (null handled apart). */
  static List<Object> values() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("n", 1);
    map.put("nested", Map.of("list", List.of(1, 2)));
    map.put("nothing", null);
    List<Object> list = new ArrayList<>(List.of("a", 2L, 3.5));
    list.add(null);
    return List.of(
        42,
        -7L,
        true,
        'x',
        3.25d,
        1.5f,
        (short) 9,
        (byte) -1,
        "",
        "Grüße, こんにちは, Привет, 🙂",
        "a".repeat(10_000),
        new byte[] {0, 1, -128, 127},
        map,
        Map.of("k", "v"),
        list,
        List.of(1, 2, 3),
        new Customer("Ada", new Address("Main St", "Ōsaka"), List.of()),
        basket(),
        Instant.parse("2024-02-29T12:34:56.789Z"),
        new BigDecimal("12345678901234567890.000000001"),
        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
  }

  /** A second serializer (id 200) for strings only, to switch the default between two. */
  static final class Utf8Serializer implements ObjectSerializer {
    @Override
    public String name() {
      return "utf8";
    }

    @Override
    public int id() {
      return 200;
    }

    @Override
    public int formatVersion() {
      return 1;
    }

    @Override
    public void serialize(Object value, OutputStream out) throws IOException {
      out.write(((String) value).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Object deserialize(InputStream in, ClassLoader loader) throws IOException {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static class Utf8Factory implements SerializerFactory {
    @Override
    public String name() {
      return "utf8";
    }

    @Override
    public ObjectSerializer create(SerializerSettings settings) {
      return new Utf8Serializer();
    }
  }

  static StoredValues storedValues(String serializer, String codec) {
    return StoredValues.builder(
            SerializationConfig.builder().serializer(serializer).codec(codec).build())
        .serializer(new Utf8Factory())
        .build();
  }
}
