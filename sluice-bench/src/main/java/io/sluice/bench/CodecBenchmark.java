package io.sluice.bench;

import io.sluice.core.serialization.spi.Codec;
import io.sluice.core.serialization.spi.CodecFactory;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Codecs compared on the UTF-8 bytes of the 1 MiB string of {@link SerializationShapes} (JSON-ish
 * order lines), each at its default level: {@code none}, {@code deflate} and {@code gzip} (6),
 * {@code lz4}, {@code zstd} (1). One op handles exactly 1 MiB, so the ops/s JMH prints are MiB/s:
 * {@code encode}, {@code decode} (of the bytes encoded in the setup) and {@code roundTrip} (both).
 * The setup checks the bytes decode back equal and prints the encoded size and the ratio. {@code
 * none} hands the array back untouched, so its figures only show the call is free.
 *
 * <p>Run (about 2 minutes on 2 cores: 15 forks of 2 × 1 s warm-up and 3 × 1 s measurement): {@code
 * ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar CodecBenchmark} with a JDK 21+ {@code java}.
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
      "--sun-misc-unsafe-memory-access=allow",
      "--enable-native-access=ALL-UNNAMED"
    })
public class CodecBenchmark {

  @Param({"none", "deflate", "gzip", "lz4", "zstd"})
  public String codec;

  private Codec theCodec;
  private byte[] data;
  private byte[] encoded;

  @Setup(Level.Trial)
  public void setUp() {
    theCodec = codec(codec);
    data = SerializationShapes.textBytes(SerializationShapes.MIB);
    encoded = theCodec.encode(data);
    if (!Arrays.equals(data, theCodec.decode(encoded, data.length))) {
      throw new IllegalStateException(codec + " did not decode the text back equal");
    }
    System.out.printf(
        "%n[ratio] %s: %,d -> %,d bytes, %.1f%% of the original, ratio %.2f%n",
        codec,
        data.length,
        encoded.length,
        100.0 * encoded.length / data.length,
        (double) data.length / encoded.length);
  }

  /** Encodes 1 MiB. */
  @Benchmark
  public byte[] encode() {
    return theCodec.encode(data);
  }

  /** Decodes 1 MiB (from its encoded form). */
  @Benchmark
  public byte[] decode() {
    return theCodec.decode(encoded, data.length);
  }

  /** Encodes 1 MiB and decodes it back. */
  @Benchmark
  public byte[] roundTrip() {
    return theCodec.decode(theCodec.encode(data), data.length);
  }

  /** The codec {@code name}'s factory, found with ServiceLoader, at its default level. */
  static Codec codec(String name) {
    List<String> found = new ArrayList<>();
    for (CodecFactory factory : ServiceLoader.load(CodecFactory.class)) {
      if (factory.name().equals(name)) {
        return factory.create(null);
      }
      found.add(factory.name());
    }
    throw new IllegalArgumentException("No codec '" + name + "'; installed: " + found);
  }
}
