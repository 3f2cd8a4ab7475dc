package io.sluice.bench;

import io.sluice.core.serialization.spi.ObjectSerializer;
import io.sluice.core.serialization.spi.SerializerFactory;
import io.sluice.core.serialization.spi.SerializerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Serializers compared on the values stores keep (issue 3): each serializer ({@code jdk}, {@code
 * kryo}, {@code fory}, made by its {@link SerializerFactory} with the default settings, so the
 * default allow-list is checked on every read) on each shape of {@link SerializationShapes}: a 1 KB
 * map of strings, an order with 1,000 line items, a 1 MiB string and a 1 MiB byte array. {@code
 * roundTrip} serializes then deserializes one value (one op = one value written and read back);
 * {@code serialize} only writes, so a read costs {@code 1/roundTrip - 1/serialize} seconds. The
 * setup checks the value reads back equal and prints its serialized size ({@link SerializedSizes}
 * prints them all as a table).
 *
 * <p>Goals: the default serializer at least 10 times JDK serialization on {@code order1000}, and
 * not slower than Kryo on any shape.
 *
 * <p>Run (about 3 minutes on 2 cores: 24 forks of 2 × 1 s warm-up and 3 × 1 s measurement): {@code
 * ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar SerializerBenchmark} with a JDK 21+ {@code java} (the forks
 * get the flags Fory and Kryo need on JDK 25). One question only: {@code ...
 * SerializerBenchmark.roundTrip -p shape=order1000}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms1g",
      "-Xmx1g",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow",
      "--enable-native-access=ALL-UNNAMED"
    })
public class SerializerBenchmark {

  @Param({"jdk", "kryo", "fory"})
  public String serializer;

  @Param({"map1k", "order1000", "string1m", "bytes1m"})
  public String shape;

  private ObjectSerializer objectSerializer;
  private ClassLoader loader;
  private Object value;

  @Setup(Level.Trial)
  public void setUp() {
    objectSerializer = serializer(serializer);
    loader = SerializerBenchmark.class.getClassLoader();
    value = SerializationShapes.value(shape);
    byte[] bytes = objectSerializer.serialize(value);
    Object read = objectSerializer.deserialize(bytes, loader);
    if (!SerializationShapes.sameValue(value, read)) {
      throw new IllegalStateException(serializer + " did not read " + shape + " back equal");
    }
    System.out.printf("%n[size] %s %s: %,d bytes%n", serializer, shape, bytes.length);
  }

  /** Writes the value and reads it back. */
  @Benchmark
  public Object roundTrip() {
    return objectSerializer.deserialize(objectSerializer.serialize(value), loader);
  }

  /** Writes the value only. */
  @Benchmark
  public byte[] serialize() {
    return objectSerializer.serialize(value);
  }

  /** The serializer {@code name}'s factory, found with ServiceLoader, with the default settings. */
  static ObjectSerializer serializer(String name) {
    List<String> found = new ArrayList<>();
    for (SerializerFactory factory : ServiceLoader.load(SerializerFactory.class)) {
      if (factory.name().equals(name)) {
        return factory.create(SerializerSettings.defaults());
      }
      found.add(factory.name());
    }
    throw new IllegalArgumentException("No serializer '" + name + "'; installed: " + found);
  }
}
