package io.sluice.bench;

import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
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
 * What a store or queue pays per value: a record written and read back through {@link StoredValues}
 * (serializer, codec, 18-byte header, CRC32C, every check on read), for pairs of serializer and
 * codec ({@code jdk/none} is the built-in default), on the 1 KB map of strings and the order with
 * 1,000 items of {@link SerializationShapes}. One op = one record written and read. The setup
 * checks the value reads back equal and prints the record's size.
 *
 * <p>Run (about 1.5 minutes on 2 cores: 12 forks of 2 × 1 s warm-up and 3 × 1 s measurement):
 * {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar StoredValuesBenchmark} with a JDK 21+ {@code java}.
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
public class StoredValuesBenchmark {

  @Param({"jdk/none", "kryo/none", "fory/none", "kryo/lz4", "fory/lz4", "fory/zstd"})
  public String pair;

  @Param({"map1k", "order1000"})
  public String shape;

  private StoredValues storedValues;
  private ClassLoader loader;
  private Object value;

  @Setup(Level.Trial)
  public void setUp() {
    String[] names = pair.split("/", 2);
    storedValues = StoredValues.create(SerializationConfig.defaults()).using(names[0], names[1]);
    loader = StoredValuesBenchmark.class.getClassLoader();
    value = SerializationShapes.value(shape);
    byte[] record = storedValues.write(value);
    if (!SerializationShapes.sameValue(value, storedValues.read(record, loader))) {
      throw new IllegalStateException(pair + " did not read " + shape + " back equal");
    }
    System.out.printf("%n[record] %s %s: %,d bytes%n", pair, shape, record.length);
  }

  /** Writes the value as a record and reads it back. */
  @Benchmark
  public Object writeAndRead() {
    return storedValues.read(storedValues.write(value), loader);
  }
}
