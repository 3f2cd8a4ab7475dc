package io.sluice.bench.http;

import io.sluice.bench.CommandLineOptions;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import java.io.IOException;
import java.time.Duration;

/**
 * The server side of benchmarks E2 and E3, in a process of its own: a Sluice application or a bare
 * Netty server answering {@code GET /nodelay} and {@code GET /wait} (see {@link BenchEndpoint}) on
 * 127.0.0.1; the bare Netty server is also E1's downstream ({@link ServiceEndpoints}: {@code
 * /latency} and {@code /capped} answer after {@code --latency-ms}, {@code /capped} serves {@code
 * --cap} calls at once and answers 429 above that, {@code /counts} counts). It prints {@code port
 * <n>} on stdout once it listens and stops when its stdin closes or on SIGTERM. Usually started by
 * {@code sluice-bench/run-e2e3.sh}; by hand, after {@code ./mvnw -q -pl sluice-bench -am package
 * -DskipTests}:
 *
 * <pre>
 * java -cp sluice-bench/target/benchmarks.jar io.sluice.bench.http.HttpTargetServer
 *     --target sluice|netty [--strategy auto|synchronous] [--threads 300] [--max-queue 1000]
 *     [--exhausted WAIT|REJECT|DISCARD|CALLER_RUNS] [--latency-ms 5] [--cap 20]
 * </pre>
 *
 * <p>{@code auto} is {@link ProcessingStrategy.Auto#DEFAULT}, nothing touched; {@code synchronous}
 * has a receiver pool of {@code --threads}, a queue of {@code --max-queue} and {@code --exhausted}
 * (the other profile values at their defaults). {@code --strategy} and the pool options apply to
 * Sluice only.
 */
public final class HttpTargetServer {

  private static final long STOP_LIMIT_MILLIS = 10_000;

  private HttpTargetServer() {}

  /** Starts the target, prints its port and waits for stdin to close. */
  public static void main(String[] args) throws IOException {
    CommandLineOptions options = CommandLineOptions.parse(args);
    String target = options.string("target", "sluice");
    String strategyName = options.string("strategy", "auto");
    String timers = options.string("timers", "timed");
    ThreadingProfile receiver =
        ThreadingProfile.builder()
            .maxThreadsActive(options.integer("threads", 16))
            .maxQueue(options.integer("max-queue", ThreadingProfile.DEFAULT.maxQueue()))
            .exhaustedAction(ExhaustedAction.valueOf(options.string("exhausted", "WAIT")))
            .build();
    ServiceEndpoints service =
        new ServiceEndpoints(
            Duration.ofNanos((long) (options.decimal("latency-ms", 5) * 1e6)),
            options.integer("cap", 20));
    options.requireAllRead();
    AutoCloseable server;
    int port;
    switch (target) {
      case "sluice" -> {
        ProcessingStrategy strategy =
            switch (strategyName) {
              case "auto" -> ProcessingStrategy.Auto.DEFAULT;
              case "synchronous" -> new ProcessingStrategy.Synchronous(receiver);
              default -> throw new IllegalArgumentException("--strategy auto|synchronous");
            };
        if (!timers.equals("timed") && !timers.equals("untimed")) {
          throw new IllegalArgumentException("--timers timed|untimed");
        }
        SluiceTarget sluice = new SluiceTarget(strategy, timers.equals("timed"));
        System.err.println("sluice target: " + strategy + ", " + timers);
        server = sluice;
        port = sluice.port();
      }
      case "netty" -> {
        BareNettyTarget netty = new BareNettyTarget(service);
        server = netty;
        port = netty.port();
      }
      default -> throw new IllegalArgumentException("--target sluice|netty");
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(server)));
    System.out.println("port " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // Anything written is ignored: the server runs until its stdin closes.
    }
    // A Sluice application lets its requests in flight finish (a synchronous pool may hold a
    // queue of sleeping ones): the next row must not wait for that, so a slow stop is cut short.
    Thread watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(STOP_LIMIT_MILLIS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              System.err.println(
                  "the target took over " + STOP_LIMIT_MILLIS + " ms to stop: halted");
              Runtime.getRuntime().halt(1);
            });
    watchdog.setDaemon(true);
    watchdog.start();
    System.exit(0);
  }

  private static void closeQuietly(AutoCloseable server) {
    try {
      server.close();
    } catch (Exception e) {
      System.err.println("stopping the target failed: " + e);
    }
  }
}
