package io.sluice.bench.routers;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.Choice;
import io.sluice.core.router.Foreach;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a choice and a foreach add to a message, against the same flow without them, in one run
 * ({@code auto}, CPU_LITE work, the message sent on the benchmark's thread and carried through on
 * it):
 *
 * <ul>
 *   <li>{@code flow=bare}: one processor setting a variable; {@code flow=choice}: the same
 *       processor inside a choice of three conditions, the third taken; the difference is the
 *       choice's cost per message.
 *   <li>{@code flow=foreach}: a foreach over a list of 1,000 numbers running that processor per
 *       element; {@code flow=loop}: one processor that runs the same processor over the list in a
 *       plain Java loop, what a user would write without foreach. Items per second are 1,000 times
 *       the messages per second.
 * </ul>
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar RouterCostBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RouterCostBenchmark {

  static final int ITEMS = 1_000;

  @Param({"bare", "choice", "foreach", "loop"})
  public String flow;

  private Application app;
  private Message message;

  private static final Processor SET =
      Processor.of(ProcessingType.CPU_LITE, m -> m.withVariable("seen", m.payload()));

  @Setup(Level.Trial)
  public void start() {
    Flow.Builder builder = Flow.builder("f");
    List<Integer> items = IntStream.range(0, ITEMS).boxed().toList();
    switch (flow) {
      case "bare" -> {
        builder.processor(SET);
        message = Message.of(Integer.valueOf(3));
      }
      case "choice" -> {
        builder.processor(
            Choice.builder("c")
                .when("payload == 1", SET)
                .when("payload == 2", SET)
                .when("payload == 3", SET)
                .otherwise(SET)
                .build());
        message = Message.of(Integer.valueOf(3));
      }
      case "foreach" -> {
        builder.processor(Foreach.of(SET));
        message = Message.of(items);
      }
      case "loop" -> {
        builder.processor(
            Processor.of(
                ProcessingType.CPU_LITE,
                m -> {
                  Message current = m;
                  for (Object item : (List<?>) m.payload()) {
                    current = SET.process(current.withPayload(item));
                  }
                  return current.withPayload(m.payload());
                }));
        message = Message.of(items);
      }
      default -> throw new IllegalArgumentException(flow);
    }
    app = Application.builder().flow(builder.build()).build();
    app.start();
  }

  @TearDown(Level.Trial)
  public void stop() {
    app.close();
  }

  @Benchmark
  public Message send() {
    return app.send("f", message).join();
  }
}
