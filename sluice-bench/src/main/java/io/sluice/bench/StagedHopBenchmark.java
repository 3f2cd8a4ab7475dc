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
 * The cost of one staged hop: the same staged flow with its counting step as a processor (two hops:
 * receiver, flow) or as a sink (three hops: receiver, flow, dispatcher). The difference in time per
 * message is what one more stage costs. {@code batch} 1 measures the hop's latency (one message at
 * a time, threads wake up for each), 10,000 its cost under load.
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar StagedHopBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StagedHopBenchmark {

  @Param({"2", "3"})
  public int hops;

  private FlowFixture fixture;

  @Setup(Level.Trial)
  public void start() {
    fixture = new FlowFixture("staged", 0, hops == 3);
  }

  @TearDown(Level.Trial)
  public void stop() {
    fixture.close();
  }

  /** Time per message under load. */
  @Benchmark
  @OperationsPerInvocation(FlowThroughputBenchmark.BATCH)
  public void underLoad() throws InterruptedException {
    fixture.pushAndAwait(FlowThroughputBenchmark.BATCH);
  }

  /** Time for one message alone through the flow. */
  @Benchmark
  public void alone() throws InterruptedException {
    fixture.pushAndAwait(1);
  }
}
