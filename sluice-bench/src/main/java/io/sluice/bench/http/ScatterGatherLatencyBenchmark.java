package io.sluice.bench.http;

import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.bench.CommandLineOptions;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.spi.Processor;
import io.sluice.http.HttpRequestConfig;
import io.sluice.http.HttpRequestProcessor;
import io.sluice.http.internal.NettyClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Scatter-gather of three HTTP routes to a service answering after 50 ms, against the slowest route
 * alone, in one process and one run: a bare Netty service ({@code /latency}, its answer a timer's,
 * no thread held) and a Sluice application under {@code auto} with two flows, {@code sg} (a
 * scatter-gather of three {@code http-request}s) and {@code one} (one {@code http-request}).
 *
 * <p>Lone requests, one at a time, alternating the two flows, timed from send to result: the first
 * of each flow from a cold application is reported apart, then {@code --warm-up} requests of each
 * are left out and {@code --requests} of each measured (p50, p99, max). Alternating with them, the
 * baselines without Sluice: one GET by the client {@code http-request} uses, and three at once
 * timed to the last answer (the floor of any scatter-gather on this machine). Then {@code
 * --concurrent} scatter-gathers at once: the platform threads alive while they all wait, against
 * before. The per-round differences (scatter-gather minus three bare GETs, one route minus one bare
 * GET) are printed too: the cost of Sluice, steadier than two percentiles apart.
 *
 * <pre>
 * ./mvnw -q -pl sluice-bench -am package -DskipTests
 * sluice-bench/run-main.sh 1g io.sluice.bench.http.ScatterGatherLatencyBenchmark
 *     [--latency-ms 50] [--warm-up 50] [--requests 300] [--concurrent 500]
 * </pre>
 */
public final class ScatterGatherLatencyBenchmark {

  private ScatterGatherLatencyBenchmark() {}

  /** Runs the measurements and prints them. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    Duration latency = Duration.ofMillis(options.integer("latency-ms", 50));
    int warmUp = options.integer("warm-up", 50);
    int requests = options.integer("requests", 300);
    int concurrent = options.integer("concurrent", 500);
    options.requireAllRead();
    try (BareNettyTarget service = new BareNettyTarget(new ServiceEndpoints(latency, 20))) {
      String url = "http://127.0.0.1:" + service.port() + "/latency";
      Flow sg =
          Flow.builder("sg")
              .processor(
                  new ScatterGather(
                      "three",
                      List.of(
                          new ScatterGather.Route("a", List.of(call(url))),
                          new ScatterGather.Route("b", List.of(call(url))),
                          new ScatterGather.Route("c", List.of(call(url)))),
                      Duration.ofSeconds(10),
                      false,
                      ScatterGather.DEFAULT_ERRORS_VARIABLE))
              .build();
      Flow one = Flow.builder("one").processor(call(url)).build();
      try (Application app = Application.builder().flow(sg).flow(one).build()) {
        app.start();
        long coldSg = time(app, "sg");
        long coldOne = time(app, "one");
        for (int i = 0; i < warmUp; i++) {
          time(app, "sg");
          time(app, "one");
        }
        long[] sgTimes = new long[requests];
        long[] oneTimes = new long[requests];
        long[] bareTimes = new long[requests];
        long[] bareThreeTimes = new long[requests];
        try (NettyClient bare =
            new NettyClient(Duration.ofSeconds(5), Duration.ofSeconds(5), 4, 1 << 20, null)) {
          for (int i = 0; i < warmUp; i++) {
            time(bare, service.port(), 1);
            time(bare, service.port(), 3);
          }
          for (int i = 0; i < requests; i++) {
            sgTimes[i] = time(app, "sg");
            oneTimes[i] = time(app, "one");
            bareTimes[i] = time(bare, service.port(), 1);
            bareThreeTimes[i] = time(bare, service.port(), 3);
          }
        }
        System.out.printf(
            "service latency %d ms; cold first request: scatter-gather %.1f ms, one route %.1f"
                + " ms%n",
            latency.toMillis(), coldSg / 1e6, coldOne / 1e6);
        report("scatter-gather of 3", sgTimes);
        report("one route", oneTimes);
        report("bare client", bareTimes);
        report("bare client, 3 at once", bareThreeTimes);
        reportOver("scatter-gather over 3 bare GETs", sgTimes, bareThreeTimes);
        reportOver("one route over 1 bare GET", oneTimes, bareTimes);
        int before = Thread.getAllStackTraces().size();
        List<CompletableFuture<Message>> waiting = new ArrayList<>();
        for (int i = 0; i < concurrent; i++) {
          waiting.add(app.send("sg", Message.of("x")));
        }
        int during = Thread.getAllStackTraces().size();
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).join();
        System.out.printf(
            "%d scatter-gathers at once: %d platform threads alive before, %d while they"
                + " wait%n",
            concurrent, before, during);
      }
    }
  }

  private static Processor call(String url) {
    return new HttpRequestProcessor(
        HttpRequestConfig.builder("GET", Template.parse("url", url)).build());
  }

  private static long time(Application app, String flow) {
    long start = System.nanoTime();
    app.send(flow, Message.of("x")).join();
    return System.nanoTime() - start;
  }

  /**
   * {@code calls} GETs of the service at once by the client http-request uses, without a flow,
   * timed to the last answer: the baseline of one route ({@code 1}) and of a fan-out ({@code 3}).
   */
  private static long time(NettyClient client, int port, int calls) {
    long start = System.nanoTime();
    List<CompletableFuture<FullHttpResponse>> answers = new ArrayList<>(calls);
    for (int i = 0; i < calls; i++) {
      answers.add(
          client.send(
              false,
              "127.0.0.1",
              port,
              new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/latency")));
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).join();
    long took = System.nanoTime() - start;
    answers.forEach(answer -> answer.join().release());
    return took;
  }

  /**
   * What {@code measured} took over {@code baseline} in the same round, request by request: the
   * cost of Sluice, less sensitive than the two percentiles apart to a machine whose load moves
   * within the run (both sides of a round meet the same load).
   */
  private static void reportOver(String what, long[] measured, long[] baseline) {
    long[] over = new long[measured.length];
    for (int i = 0; i < over.length; i++) {
      over[i] = measured[i] - baseline[i];
    }
    Arrays.sort(over);
    System.out.printf(
        "%-32s p50 %+.2f ms, p90 %+.2f ms (same round)%n",
        what, over[over.length / 2] / 1e6, over[(int) Math.ceil(over.length * 0.9) - 1] / 1e6);
  }

  private static void report(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%-20s p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d requests)%n",
        what,
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6,
        sorted[sorted.length - 1] / 1e6,
        sorted.length);
  }
}
