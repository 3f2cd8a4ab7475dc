package io.sluice.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.core.store.StoredMessage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Benchmark E4: messages through the four stores (a persistent queue and an object store on
 * embedded SQLite; a distributed queue and object store on PostgreSQL) for each serializer, codec
 * and payload size. A scenario benchmark (threads against a real database for a fixed time), not
 * JMH. Run from the repository root after {@code ./mvnw -q -pl sluice-bench -am package
 * -DskipTests}:
 *
 * <pre>
 * sluice-bench/run-e4.sh [--cases sqlite-queue,sqlite-store,pg-queue,pg-store]
 *     [--serializers jdk,kryo,fory] [--codecs none,deflate,gzip,lz4,zstd] [--sizes 1k,100k,1m]
 *     [--seconds 3] [--runs 3] [--warm-up 3] [--threads 16,64,256] [--sync FULL|NORMAL] [--max-others 100] [--out e4.csv]
 * </pre>
 *
 * <p>A transaction is, for a queue, one message enqueued, taken and acknowledged (producers and
 * consumers at once: {@value #PRODUCERS} producers call {@code enqueueAll} with about 64 KB per
 * call, {@value #CONSUMERS} consumers take up to 256 and acknowledge them with one {@code ackAll});
 * for an object store, one put and one get of the same key, 10,000 keys per thread, once for each
 * number of threads in {@code --threads} (16, 64 and 256 by default: a store's capacity is the rate
 * where more callers stop adding any, and each serializer reaches it at its own count; a row per
 * count, and {@code e4-tables.py} takes the best). The payload is a {@link StoredMessage} whose
 * payload is an order ({@link SerializationShapes#order}) with as many line items as make its
 * JDK-serialized record the size asked. First every case runs once per serializer and codec for
 * {@code --warm-up} seconds, unrecorded (the JIT's work would otherwise land in the first rows);
 * then each combination gets a fresh store, a warm-up of one second and {@code --seconds} of
 * measurement; the result is the median of {@code --runs}, with the CPU time each transaction cost
 * (this process and the PostgreSQL server) and how much of the machine other processes took.
 */
public final class StorageBenchmark {

  static final int PRODUCERS = 4;
  static final int CONSUMERS = 2;

  /** Threads putting and getting in the object-store cases, one measurement each. */
  static List<Integer> STORE_THREADS = List.of(16, 64, 256);

  static final String PG_URL = "jdbc:postgresql://127.0.0.1:5432/test";
  static final String PG_SCHEMA = "sluice_bench";

  /** How hard SQLite pushes commits to the disk: {@code --sync FULL} (the default) or NORMAL. */
  static StorageConfig.Sync SYNC = StorageConfig.Sync.FULL;

  /**
   * A run during which other processes took more than this share of the machine's CPU, in percent,
   * is run again, up to three times as many runs as asked: {@code --max-others 15}. The default
   * keeps every run.
   */
  static double MAX_OTHERS = 100;

  private StorageBenchmark() {}

  /** Runs the combinations the arguments select and prints (and writes) the results. */
  public static void main(String[] args) throws Exception {
    CommandLineOptions options = CommandLineOptions.parse(args);
    List<String> cases = options.list("cases", "sqlite-queue,sqlite-store,pg-queue,pg-store");
    List<String> serializers = options.list("serializers", "jdk,kryo,fory");
    List<String> codecs = options.list("codecs", "none,deflate,gzip,lz4,zstd");
    List<String> sizes = options.list("sizes", "1k,100k,1m");
    double seconds = options.decimal("seconds", 3);
    int runs = options.integer("runs", 3);
    Path out = Path.of(options.string("out", "e4.csv"));
    SYNC = StorageConfig.Sync.valueOf(options.string("sync", "FULL"));
    MAX_OTHERS = options.decimal("max-others", 100);
    STORE_THREADS = options.list("threads", "16,64,256").stream().map(Integer::valueOf).toList();
    boolean fresh = !Files.exists(out);
    try (PrintStream csv =
        new PrintStream(
            Files.newOutputStream(
                out,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND))) {
      if (fresh) {
        csv.println(
            "case,serializer,codec,size,record_bytes,runs,tps_median,mb_s,tps_all,cpu_us_per_tx,db_cpu_us_per_tx,others_cpu_pct,discarded,threads");
      }
      // The JIT compiles the stores' and serializers' code during the first seconds, on the same
      // two cores: warm every case up with every serializer and codec once, unrecorded.
      double warmUp = options.decimal("warm-up", 3);
      for (String kase : cases) {
        for (String serializer : serializers) {
          for (String codec : codecs) {
            if (warmUp > 0) {
              measure(kase, serializer, codec, "1k", warmUp, 1, STORE_THREADS.getFirst());
            }
          }
        }
      }
      for (String size : sizes) {
        for (String kase : cases) {
          for (String serializer : serializers) {
            for (String codec : codecs) {
              for (int threads : kase.endsWith("-store") ? STORE_THREADS : List.of(0)) {
                Result result = measure(kase, serializer, codec, size, seconds, runs, threads);
                String line =
                    String.join(
                        ",",
                        kase,
                        serializer,
                        codec,
                        size,
                        Integer.toString(result.recordBytes),
                        Integer.toString(runs),
                        String.format("%.0f", result.median()),
                        String.format("%.1f", result.median() * result.recordBytes / 1e6),
                        Arrays.stream(result.tps)
                            .mapToObj(t -> String.format("%.0f", t))
                            .reduce((a, b) -> a + " " + b)
                            .orElse(""),
                        String.format("%.1f", result.cpuMedian()),
                        String.format("%.1f", result.dbCpuMedian()),
                        String.format("%.0f", result.othersMax()),
                        Integer.toString(result.discarded()),
                        threads == 0 ? "" : Integer.toString(threads));
                csv.println(line);
                csv.flush();
                System.out.println(line);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Transactions per second of each run, and the CPU time each transaction cost (this process and
   * the PostgreSQL server's processes together), in microseconds: a figure that the other work on a
   * shared machine disturbs much less than the rate.
   */
  record Result(
      int recordBytes,
      double[] tps,
      double[] cpuMicros,
      double[] dbCpuMicros,
      double[] others,
      int discarded) {
    double median() {
      return median(tps);
    }

    double cpuMedian() {
      return median(cpuMicros);
    }

    double dbCpuMedian() {
      return median(dbCpuMicros);
    }

    /** The most of the machine's CPU other processes took during a run, in percent. */
    double othersMax() {
      return Arrays.stream(others).max().orElse(0);
    }

    private static double median(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      return sorted[sorted.length / 2];
    }
  }

  /** One run: its rate and the CPU time it took per transaction, all and the server's part. */
  record Run(double tps, double cpuMicros, double dbCpuMicros, double othersPercent) {}

  /** Runs of one combination; {@code threads} put and get in a store case (queues ignore it). */
  static Result measure(
      String kase,
      String serializer,
      String codec,
      String size,
      double seconds,
      int runs,
      int threads)
      throws Exception {
    StoredValues values = values(serializer, codec);
    StoredMessage payload = payload(bytes(size));
    int recordBytes = values.write(payload).length;
    double[] tps = new double[runs];
    double[] cpu = new double[runs];
    double[] dbCpu = new double[runs];
    double[] others = new double[runs];
    int discarded = 0;
    for (int run = 0; run < runs; run++) {
      Path dir = kase.startsWith("sqlite-") ? Files.createTempDirectory("sluice-e4-") : null;
      try (Storage storage = open(kase, values, dir)) {
        Run result =
            kase.endsWith("-queue")
                ? queue(storage, payload, bytes(size), seconds)
                : store(storage, payload, seconds, threads);
        if (result.othersPercent() > MAX_OTHERS && discarded < 3 * runs) {
          // Other work took too much of the machine during this run: run it again.
          discarded++;
          run--;
          continue;
        }
        tps[run] = result.tps();
        cpu[run] = result.cpuMicros();
        dbCpu[run] = result.dbCpuMicros();
        others[run] = result.othersPercent();
      } finally {
        if (dir != null) {
          ScratchDirectory.deleteTree(dir);
        }
      }
    }
    return new Result(recordBytes, tps, cpu, dbCpu, others, discarded);
  }

  private static final Map<String, StoredValues> VALUES = new java.util.HashMap<>();

  /**
   * Stored values writing with {@code serializer} + {@code codec} at its default level: one per
   * pair for the whole run, as an application has one, so the classes Fory and Kryo generate for it
   * are compiled during the warm-up and not again in every measured run.
   */
  static StoredValues values(String serializer, String codec) {
    return VALUES.computeIfAbsent(serializer + "+" + codec, k -> newValues(serializer, codec));
  }

  private static StoredValues newValues(String serializer, String codec) {
    return StoredValues.create(
        SerializationConfig.builder()
            .serializer("bench", serializer, codec, null)
            .defaultName("bench")
            .build());
  }

  static int bytes(String size) {
    return switch (size) {
      case "1k" -> 1024;
      case "100k" -> 100 * 1024;
      case "1m" -> 1024 * 1024;
      default -> throw new IllegalArgumentException("size must be 1k, 100k or 1m: " + size);
    };
  }

  /** A message whose JDK-serialized record is about {@code target} bytes. */
  static StoredMessage payload(int target) {
    StoredValues jdk = values("jdk", "none");
    int low = 1;
    int high = 1;
    while (jdk.write(message(high)).length < target) {
      low = high;
      high *= 2;
    }
    while (low < high) {
      int mid = (low + high) / 2;
      if (jdk.write(message(mid)).length < target) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return message(low);
  }

  private static StoredMessage message(int items) {
    return new StoredMessage(
        SerializationShapes.order(items),
        Map.of("queue", "orders", "correlationId", "c-42"),
        Map.of("attempt", 1));
  }

  static Storage open(String kase, StoredValues values, Path dir) throws IOException, SQLException {
    StorageConfig config;
    if (kase.startsWith("sqlite-")) {
      config = StorageConfig.builder().dataDir(dir).sync(SYNC).build();
    } else if (kase.startsWith("pg-")) {
      resetPostgres();
      config =
          StorageConfig.builder()
              .url(PG_URL + "?currentSchema=" + PG_SCHEMA)
              .user("postgres")
              .build();
    } else {
      throw new IllegalArgumentException("unknown case " + kase);
    }
    return Storages.open(
        config,
        values,
        new SimpleMeterRegistry(),
        Clock.systemUTC(),
        StorageBenchmark.class.getClassLoader());
  }

  private static void resetPostgres() throws SQLException {
    try (Connection c = DriverManager.getConnection(PG_URL, "postgres", null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + PG_SCHEMA + " CASCADE");
      s.execute("CREATE SCHEMA " + PG_SCHEMA);
    }
  }

  /** Messages enqueued, taken and acknowledged per second. */
  static Run queue(Storage storage, StoredMessage payload, int size, double seconds)
      throws InterruptedException {
    DurableQueue queue = storage.queue("e4", QueueOptions.DEFAULTS);
    int batch = Math.max(1, 64 * 1024 / size);
    List<StoredMessage> messages = new ArrayList<>();
    for (int i = 0; i < batch; i++) {
      messages.add(payload);
    }
    AtomicBoolean running = new AtomicBoolean(true);
    LongAdder acked = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    // Producers stay a bounded distance ahead, so the queue does not only grow: a permit per
    // message not yet acknowledged (waiting for one costs no CPU, unlike polling).
    Semaphore backlog = new Semaphore(Math.max(PRODUCERS * batch * 4, 2000));
    for (int p = 0; p < PRODUCERS; p++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      while (running.get()) {
                        if (backlog.tryAcquire(messages.size(), 100, TimeUnit.MILLISECONDS)) {
                          queue.enqueueAll(messages);
                        }
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    for (int c = 0; c < CONSUMERS; c++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      while (running.get()) {
                        List<Delivery> taken = queue.take(256, java.time.Duration.ofMillis(100));
                        if (!taken.isEmpty()) {
                          acked.add(queue.ackAll(taken));
                          backlog.release(taken.size());
                        }
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    return measureRate(storage, acked, seconds, running, threads);
  }

  /** Puts and gets of one key per second, from {@code threads} threads. */
  static Run store(Storage storage, StoredMessage payload, double seconds, int callers)
      throws InterruptedException {
    ObjectStore store = storage.objectStore("e4", ObjectStoreOptions.DEFAULTS);
    AtomicBoolean running = new AtomicBoolean(true);
    LongAdder done = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < callers; t++) {
      String prefix = "t" + t + "-";
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; running.get(); i++) {
                      String key = prefix + (i % 10_000);
                      store.put(key, payload);
                      if (store.get(key).isEmpty()) {
                        throw new IllegalStateException("lost " + key);
                      }
                      done.increment();
                    }
                  }));
    }
    return measureRate(storage, done, seconds, running, threads);
  }

  private static Run measureRate(
      Storage storage,
      LongAdder counter,
      double seconds,
      AtomicBoolean running,
      List<Thread> threads)
      throws InterruptedException {
    Thread.sleep(1000); // warm-up
    long start = System.nanoTime();
    long before = counter.sum();
    long cpuBefore = CpuTime.ofThisProcess();
    boolean server = storage.describe().startsWith("postgresql");
    long dbBefore = server ? CpuTime.ofProcessesNamed("postgres") : 0;
    long machineBefore = CpuTime.ofMachine();
    Thread.sleep((long) (seconds * 1000));
    long after = counter.sum();
    long cpuAfter = CpuTime.ofThisProcess();
    long dbAfter = server ? CpuTime.ofProcessesNamed("postgres") : 0;
    long machineAfter = CpuTime.ofMachine();
    double elapsed = (System.nanoTime() - start) / 1e9;
    running.set(false);
    for (Thread thread : threads) {
      thread.join();
    }
    long done = Math.max(1, after - before);
    long db = dbAfter - dbBefore;
    long ours = cpuAfter - cpuBefore + db;
    double others =
        100.0
            * Math.max(0, machineAfter - machineBefore - ours)
            / (elapsed * 1e9 * Runtime.getRuntime().availableProcessors());
    return new Run((after - before) / elapsed, ours / 1e3 / done, db / 1e3 / done, others);
  }
}
