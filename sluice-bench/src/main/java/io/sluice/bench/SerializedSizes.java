package io.sluice.bench;

import io.sluice.core.serialization.spi.ObjectSerializer;
import java.util.List;

/**
 * Prints the serialized size of each shape of {@link SerializationShapes} for each serializer, as a
 * markdown table, after checking each reads back equal.
 *
 * <p>Run (JDK 21+): {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java
 * --add-opens=java.base/java.lang.invoke=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp
 * sluice-bench/target/benchmarks.jar io.sluice.bench.SerializedSizes}
 */
public final class SerializedSizes {

  private SerializedSizes() {}

  /** Prints the table. */
  public static void main(String[] args) {
    List<String> serializers = List.of("jdk", "kryo", "fory");
    StringBuilder table = new StringBuilder("| shape |");
    serializers.forEach(name -> table.append(' ').append(name).append(" (bytes) |"));
    table.append("\n| --- |");
    serializers.forEach(name -> table.append(" ---: |"));
    ClassLoader loader = SerializedSizes.class.getClassLoader();
    for (String shape : SerializationShapes.NAMES) {
      Object value = SerializationShapes.value(shape);
      table.append("\n| `").append(shape).append("` |");
      for (String name : serializers) {
        ObjectSerializer serializer = SerializerBenchmark.serializer(name);
        byte[] bytes = serializer.serialize(value);
        if (!SerializationShapes.sameValue(value, serializer.deserialize(bytes, loader))) {
          throw new IllegalStateException(name + " did not read " + shape + " back equal");
        }
        table.append(String.format(" %,d |", bytes.length));
      }
    }
    System.out.println(table);
  }
}
