package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.formats.Format;
import io.sluice.formats.ReadConfig;
import io.sluice.formats.ReadProcessor;
import io.sluice.formats.TransformProcessor;
import io.sluice.formats.WriteConfig;
import io.sluice.formats.WriteProcessor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * Does a flow that reads a JSON order, transforms it into a summary and writes the summary as JSON
 * keep up with the same work in plain Jackson, and where should the auto strategy run it? {@code
 * jackson} parses, builds the summary in Java and writes it on the benchmark thread; {@code
 * CPU_LITE}, {@code CPU_INTENSIVE} run a flow of {@code read}, {@code transform}, {@code write}
 * declaring that processing type (the first in place, the second on the shared CPU pool), sent with
 * {@code Application.send}. {@code alone}: one message at a time, waiting for each; {@code batch}:
 * 100 sent before waiting for them all. {@code small} is an order of 3 items (~0.5 KB), {@code
 * large} one of 500 (~60 KB). One op = one message.
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -jar
 * sluice-bench/target/benchmarks.jar FormatsBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FormatsBenchmark {

  static final int BATCH = 100;

  @Param({"jackson", "CPU_LITE", "CPU_INTENSIVE"})
  public String runner;

  @Param({"small", "large"})
  public String size;

  private final ObjectMapper jackson = new ObjectMapper();
  private byte[] order;
  private Application app;

  @Setup(Level.Trial)
  public void start() throws IOException {
    order = order(size.equals("small") ? 3 : 500);
    if (!runner.equals("jackson")) {
      ProcessingType type = ProcessingType.valueOf(runner);
      Flow flow =
          Flow.builder("formats")
              .processor(
                  new ReadProcessor(
                      ReadConfig.builder().format(Format.JSON).processingType(type).build()))
              .processor(TransformProcessor.of("template", template(), null, type))
              .processor(
                  new WriteProcessor(WriteConfig.builder(Format.JSON).processingType(type).build()))
              .build();
      app = Application.builder().flow(flow).build();
      app.start();
    }
    byte[] plain = plain(order);
    byte[] flowed = flowed(order);
    if (flowed != null
        && !new String(flowed, StandardCharsets.UTF_8)
            .equals(new String(plain, StandardCharsets.UTF_8))) {
      throw new IllegalStateException(
          "the flow and Jackson disagree: "
              + new String(flowed, StandardCharsets.UTF_8)
              + " vs "
              + new String(plain, StandardCharsets.UTF_8));
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private static Map<String, Object> template() {
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("id", "#[payload.order.id]");
    template.put("customer", "#[payload.order.customer]");
    template.put("lines", "#[payload.order.items.size()]");
    template.put("firstSku", "#[payload.order.items[0].sku]");
    template.put("label", "order #[payload.order.id]");
    return template;
  }

  /** The same summary, built in Java. */
  @SuppressWarnings("unchecked")
  private byte[] plain(byte[] document) throws IOException {
    Map<String, Object> root = jackson.readValue(document, Map.class);
    Map<String, Object> order = (Map<String, Object>) root.get("order");
    List<Map<String, Object>> items = (List<Map<String, Object>>) order.get("items");
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("id", order.get("id"));
    summary.put("customer", order.get("customer"));
    summary.put("lines", items.size());
    summary.put("firstSku", items.get(0).get("sku"));
    summary.put("label", "order " + order.get("id"));
    return jackson.writeValueAsBytes(summary);
  }

  private byte[] flowed(byte[] document) {
    if (app == null) {
      return null;
    }
    return ((String) app.send("formats", Message.of(document)).join().payload())
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] order(int items) throws IOException {
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", 1042);
    order.put("customer", "Ada Lovelace");
    order.put("paid", true);
    order.put("total", 31.5);
    List<Object> lines = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("sku", "SKU-" + i);
      line.put("name", "Part number " + i);
      line.put("quantity", i % 7 + 1);
      line.put("price", 10.25 + i);
      lines.add(line);
    }
    order.put("items", lines);
    return new ObjectMapper().writeValueAsBytes(Map.of("order", order));
  }

  /** One message, waited for. */
  @Benchmark
  public Object alone() throws IOException {
    return app == null ? plain(order) : app.send("formats", Message.of(order)).join();
  }

  /** A hundred messages sent, then waited for. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public Object batch() throws IOException {
    if (app == null) {
      Object last = null;
      for (int i = 0; i < BATCH; i++) {
        last = plain(order);
      }
      return last;
    }
    CompletableFuture<?>[] sent = new CompletableFuture<?>[BATCH];
    for (int i = 0; i < BATCH; i++) {
      sent[i] = app.send("formats", Message.of(order));
    }
    return CompletableFuture.allOf(sent).join();
  }
}
