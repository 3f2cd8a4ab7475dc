package io.sluice.bench.jobs;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.bench.CommandLineOptions;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutor;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.spi.JobStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One executor node of benchmark E5, in a process of its own, started by {@link E5Benchmark}. It
 * runs the jobs of type {@value #TYPE}, whose payload is the job's work in milliseconds (0: none;
 * {@value #WARM_UP}: none, and its latency not recorded), by sleeping that long. It prints {@code
 * ready <node>} once started, and its counters so far for each line {@value #ASK_COUNTERS} on its
 * standard input; when its standard input closes it stops, then prints its {@link NodeCounters}
 * line and, with {@code --latency true}, a line {@code latencies <µs>,<µs>,…}: for each job, from
 * its due time to its handler's start.
 *
 * <pre>
 * E5Node --url jdbc:postgresql://…?currentSchema=… --node node-1 [--latency false]
 *     [E5NodeConfig's options: --acquisition, --concurrency, --prefetch, …, --pool-size]
 * </pre>
 */
public final class E5Node {

  /** The job type the nodes run. */
  static final String TYPE = "work";

  /** The payload of a no-op job whose latency is not recorded: it warms the nodes up. */
  static final int WARM_UP = -1;

  /** How payloads are written: the driver and the nodes must agree. */
  static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  /** The line on standard input that asks for the counters so far (the warm-up's, say). */
  static final String ASK_COUNTERS = "counters";

  private static final String LATENCIES = "latencies ";

  private E5Node() {}

  /** Runs one node until standard input closes. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    String url = options.string("url", "");
    String node = options.string("node", "node-1");
    boolean latency = Boolean.parseBoolean(options.string("latency", "false"));
    E5NodeConfig config = E5NodeConfig.from(options);
    options.requireAllRead();

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Queue<Long> latencies = new ConcurrentLinkedQueue<>();
    // How long the work's sleeps really took: on a busy machine a sleep wakes late, and the
    // driver tells that from what the acquisition lost.
    Timer handlerTime = registry.timer(NodeCounters.WORK_TIMER);
    StorageConfig storageConfig =
        StorageConfig.builder()
            .url(url)
            .user(E5Database.USER)
            .poolSize(config.poolSize())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    try (Storage storage =
        Storages.open(
            storageConfig, VALUES, registry, Clock.systemUTC(), E5Node.class.getClassLoader())) {
      JobStore jobs =
          JobStores.open(
              storage,
              VALUES,
              ClaimOrder.PRIORITY,
              JobStores.DEFAULT_PRIORITY_AGING,
              config.history());
      JobExecutor executor =
          JobExecutor.builder(jobs)
              .config(config.executor(node))
              .meterRegistry(registry)
              .handler(
                  TYPE,
                  job -> {
                    int work = (Integer) job.payload();
                    if (latency && work != WARM_UP) {
                      latencies.add(Duration.between(job.dueAt(), Instant.now()).toNanos() / 1_000);
                    }
                    if (work > 0) {
                      long start = System.nanoTime();
                      Thread.sleep(work);
                      handlerTime.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    }
                  })
              .build();
      executor.start();
      System.out.println("ready " + node);
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals(ASK_COUNTERS)) {
          System.out.println(NodeCounters.of(registry).line());
          System.out.flush();
        }
      }
      executor.close();
      System.out.println(NodeCounters.of(registry).line());
      if (latency) {
        System.out.println(
            LATENCIES + latencies.stream().map(String::valueOf).collect(Collectors.joining(",")));
      }
      System.out.flush();
    }
  }

  /** Whether {@code line} is a latencies line. */
  static boolean isLatencies(String line) {
    return line.startsWith(LATENCIES);
  }

  /** The latencies, in microseconds, of a latencies line. */
  static long[] latencies(String line) {
    String list = line.substring(LATENCIES.length()).trim();
    if (list.isEmpty()) {
      return new long[0];
    }
    String[] values = list.split(",");
    long[] micros = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      micros[i] = Long.parseLong(values[i]);
    }
    return micros;
  }
}
