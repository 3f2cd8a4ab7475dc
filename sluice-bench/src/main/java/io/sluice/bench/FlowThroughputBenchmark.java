package io.sluice.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Messages per second through a flow of three CPU_LITE processors fed by a VM queue, under each
 * processing strategy. One operation is one message (batches of 10,000 per invocation).
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar FlowThroughputBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FlowThroughputBenchmark {

  static final int BATCH = 10_000;

  @Param({"synchronous", "staged", "auto"})
  public String strategy;

  private FlowFixture fixture;

  @Setup(Level.Trial)
  public void start() {
    fixture = new FlowFixture(strategy, 3, false);
  }

  @TearDown(Level.Trial)
  public void stop() {
    fixture.close();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void threeLiteProcessors() throws InterruptedException {
    fixture.pushAndAwait(BATCH);
  }
}
