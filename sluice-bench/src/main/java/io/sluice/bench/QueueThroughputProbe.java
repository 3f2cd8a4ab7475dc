package io.sluice.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;

/**
 * Messages per second through a durable queue end to end: producers enqueue 1 KB messages while
 * consumers take and acknowledge them, all at once, on the real SQLite or PostgreSQL store. A
 * scenario probe, not JMH: each run opens a fresh store, warms up, then counts acknowledged
 * messages over the measured seconds; it prints every run and the median. Producers stop when
 * {@code inflight} messages are enqueued and not yet acknowledged, so the queue stays short and the
 * figure is a steady state, not a backlog being filled.
 *
 * <p>Run: {@code ./mvnw -q -pl sluice-bench -am package -DskipTests && java -cp
 * sluice-bench/target/benchmarks.jar io.sluice.bench.QueueThroughputProbe store=sqlite batch=500}
 *
 * <p>Options ({@code key=value}): {@code store} sqlite|postgresql; {@code producers} (4); {@code
 * batch} messages per {@code enqueueAll}, 1 for single {@code enqueue} calls (500); {@code
 * consumers} (2); {@code take} max per take (500); {@code payload} bytes|object (bytes: a 1 KB
 * byte[]; object: a list of 16 strings of 64 characters through the default serializer); {@code
 * seconds} measured (5); {@code warmup} seconds (2); {@code runs} (3); {@code inflight} (20000);
 * {@code dir} for SQLite files (a temporary directory); {@code url} for PostgreSQL
 * (jdbc:postgresql://127.0.0.1:5432/test, user postgres; each run in a schema of its own). {@code
 * mode=fsync} measures write+fsync of 4 KB on {@code dir} instead; {@code mode=objects} measures
 * object-store puts and gets of the payload.
 */
public final class QueueThroughputProbe {

  private final Map<String, String> options;

  private QueueThroughputProbe(Map<String, String> options) {
    this.options = options;
  }

  /** Runs the probe the arguments describe. */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("arguments are key=value, was " + arg);
      }
      options.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    new QueueThroughputProbe(options).run();
    System.exit(0);
  }

  private String option(String key, String otherwise) {
    return options.getOrDefault(key, otherwise);
  }

  private int number(String key, int otherwise) {
    return Integer.parseInt(option(key, String.valueOf(otherwise)));
  }

  private void run() throws Exception {
    String mode = option("mode", "queue");
    int runs = number("runs", 3);
    System.out.println("probe " + options);
    double[] rates = new double[runs];
    for (int i = 0; i < runs; i++) {
      rates[i] =
          switch (mode) {
            case "queue" -> queueRun();
            case "objects" -> objectRun();
            case "fsync" -> fsyncRun();
            default -> throw new IllegalArgumentException("mode is queue|objects|fsync: " + mode);
          };
      System.out.printf("run %d: %,.0f/s%n", i + 1, rates[i]);
    }
    Arrays.sort(rates);
    System.out.printf("median of %d: %,.0f/s%n", runs, rates[runs / 2]);
  }

  private Object payload() {
    if (option("payload", "bytes").equals("object")) {
      List<String> graph = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        graph.add(("field-" + i + "-").repeat(8).substring(0, 64));
      }
      return graph;
    }
    byte[] bytes = new byte[1024];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    return bytes;
  }

  /** A fresh store for one run, its meters, and what to do after closing it. */
  private record Opened(Storage storage, SimpleMeterRegistry meters, AutoCloseable cleanup) {}

  private Opened open() throws IOException, SQLException {
    StoredValues values = StoredValues.create(SerializationConfig.defaults());
    String store = option("store", "sqlite");
    StorageConfig config;
    AutoCloseable cleanup;
    if (store.equals("postgresql")) {
      String base = option("url", "jdbc:postgresql://127.0.0.1:5432/test");
      String schema = "sluice_probe_" + UUID.randomUUID().toString().substring(0, 8);
      execute(base, "CREATE SCHEMA " + schema);
      config =
          StorageConfig.builder()
              .url(base + "?currentSchema=" + schema)
              .user("postgres")
              .poolSize(number("pool", 10))
              .build();
      cleanup = () -> execute(base, "DROP SCHEMA " + schema + " CASCADE");
    } else {
      Path dir =
          options.containsKey("dir")
              ? Files.createTempDirectory(Path.of(option("dir", ".")), "probe")
              : Files.createTempDirectory("sluice-probe");
      config = StorageConfig.builder().dataDir(dir).build();
      cleanup = () -> deleteTree(dir);
    }
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Storage storage =
        Storages.open(
            config, values, meters, Clock.systemUTC(), QueueThroughputProbe.class.getClassLoader());
    return new Opened(storage, meters, cleanup);
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "postgres", null);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private double queueRun() throws Exception {
    int producers = number("producers", 4);
    int batch = number("batch", 500);
    int consumers = number("consumers", 2);
    int takeMax = number("take", 500);
    int inflight = number("inflight", 20_000);
    Object payload = payload();
    Opened opened = open();
    try (Storage storage = opened.storage()) {
      DurableQueue queue = storage.queue("probe", null);
      LongAdder acked = new LongAdder();
      LongAdder enqueued = new LongAdder();
      Semaphore room = new Semaphore(inflight);
      List<Object> chunk = Collections.nCopies(batch, payload);
      volatileStop = false;
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < producers; i++) {
        threads.add(
            Thread.ofVirtual()
                .start(
                    () -> {
                      while (!volatileStop) {
                        try {
                          room.acquire(batch);
                        } catch (InterruptedException e) {
                          return;
                        }
                        if (batch == 1) {
                          queue.enqueue(payload);
                        } else {
                          queue.enqueueAll(chunk);
                        }
                        enqueued.add(batch);
                      }
                    }));
      }
      for (int i = 0; i < consumers; i++) {
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      while (!volatileStop) {
                        try {
                          List<Delivery> taken = queue.take(takeMax, Duration.ofMillis(100));
                          if (!taken.isEmpty()) {
                            int held = queue.ackAll(taken);
                            acked.add(held);
                            room.release(taken.size());
                          }
                        } catch (InterruptedException e) {
                          return;
                        }
                      }
                    }));
      }
      double rate = measure(acked, opened.meters());
      volatileStop = true;
      room.release(producers * batch + inflight);
      for (Thread t : threads) {
        t.join();
      }
      return rate;
    } finally {
      opened.cleanup().close();
    }
  }

  private static volatile boolean volatileStop;

  /**
   * Waits out the warm-up, then counts for the measured seconds: the rate per second. With the
   * store's meters it also prints what the writer did per message counted: its threads' CPU time
   * (little disturbed by other work on the machine, unlike the rate) and its commits.
   */
  private double measure(LongAdder counter, SimpleMeterRegistry meters)
      throws InterruptedException {
    Thread.sleep(number("warmup", 2) * 1000L);
    long from = counter.sum();
    long cpuFrom = writerCpuNanos();
    double commitsFrom = commits(meters);
    long started = System.nanoTime();
    Thread.sleep(number("seconds", 5) * 1000L);
    long counted = counter.sum() - from;
    double seconds = (System.nanoTime() - started) / 1e9;
    if (meters != null && counted > 0) {
      double commits = commits(meters) - commitsFrom;
      System.out.printf(
          "  writer CPU %.2f µs per message, %.0f commits/s, %.0f messages per commit%n",
          (writerCpuNanos() - cpuFrom) / 1e3 / counted, commits / seconds, counted / commits);
    }
    return counted / seconds;
  }

  /** CPU time of the storage's writer threads ({@code sluice-writer-*}) so far. */
  private static long writerCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
      if (info.getThreadName().startsWith("sluice-writer")) {
        sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return sum;
  }

  private static double commits(SimpleMeterRegistry meters) {
    return meters == null ? 0 : meters.get("sluice.store.commits").counter().count();
  }

  private double objectRun() throws Exception {
    int threads = number("producers", 4);
    int keys = number("keys", 10_000);
    Object payload = payload();
    Opened opened = open();
    try (Storage storage = opened.storage()) {
      ObjectStore store = storage.objectStore("probe", null);
      LongAdder ops = new LongAdder();
      volatileStop = false;
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t;
        workers.add(
            Thread.ofVirtual()
                .start(
                    () -> {
                      int i = offset;
                      while (!volatileStop) {
                        String key = "k" + (i % keys);
                        store.put(key, payload);
                        store.get(key);
                        ops.add(2);
                        i += threads;
                      }
                    }));
      }
      double rate = measure(ops, null);
      volatileStop = true;
      for (Thread t : workers) {
        t.join();
      }
      return rate;
    } finally {
      opened.cleanup().close();
    }
  }

  private double fsyncRun() throws IOException {
    Path dir = Path.of(option("dir", System.getProperty("java.io.tmpdir")));
    Path file = Files.createTempFile(dir, "fsync", ".probe");
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
      ByteBuffer page = ByteBuffer.allocate(4096);
      long end = System.nanoTime() + number("seconds", 5) * 1_000_000_000L;
      long count = 0;
      long position = 0;
      while (System.nanoTime() < end) {
        page.clear();
        channel.write(page, position);
        position += 4096;
        count++;
      }
      double rate = count / (number("seconds", 5) * 1.0);
      System.out.printf("  one synced 4 KB write: %.3f ms%n", 1000 / rate);
      return rate;
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
