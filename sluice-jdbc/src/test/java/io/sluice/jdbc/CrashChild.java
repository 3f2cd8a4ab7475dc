package io.sluice.jdbc;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The process the crash tests kill with SIGKILL. It works until it is killed, and writes a line to
 * a log after each write the store acknowledged (each line one unbuffered write, so what the kernel
 * has survives the kill):
 *
 * <ul>
 *   <li>{@code queue <store> <logDir> <run>}: four producers publish to the persistent VM queue
 *       {@code work} through a flow ({@code E <id>} once the publish returned) while a listening
 *       flow with two consumers records each delivery ({@code D <id> <deliveryCount>}).
 *   <li>{@code drain <store> <logDir> <run>}: only the listening flow, until the queue is empty;
 *       then it stops gracefully and exits 0.
 *   <li>{@code store <store> <logDir> <run>}: four threads put keys ({@code P <key> <value>} once
 *       the put returned) and remove every tenth one again ({@code X <key>} before the remove,
 *       {@code R <key>} once it returned: a kill between the two leaves the key either way).
 * </ul>
 *
 * {@code <store>} is a data directory (SQLite) or a {@code jdbc:postgresql:} URL.
 */
public final class CrashChild {

  static final String QUEUE = "work";
  static final String STORE = "crash";
  static final Duration LOCK_TIMEOUT = Duration.ofSeconds(3);

  private CrashChild() {}

  /** Runs the mode the arguments name. */
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    StorageConfig config = config(args[1]);
    Path logs = Path.of(args[2]);
    String run = args[3];
    switch (mode) {
      case "queue" -> queue(config, logs, run, true);
      case "drain" -> queue(config, logs, run, false);
      case "store" -> store(config, logs, run);
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  static StorageConfig config(String store) {
    return store.startsWith("jdbc:")
        ? StorageConfig.builder().url(store).user(PostgresTestDatabase.USER).build()
        : StorageConfig.builder().dataDir(Path.of(store)).build();
  }

  private static void queue(StorageConfig config, Path logs, String run, boolean produce)
      throws Exception {
    Log delivered = new Log(logs.resolve("delivered.log"));
    Log enqueued = new Log(logs.resolve("enqueued.log"));
    Processor record =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              delivered.line(
                  "D " + message.payload() + " " + message.attributes().get("deliveryCount"));
              return message;
            });
    VmPersistence persistence =
        new VmPersistence(QueueOptions.DEFAULTS.withLockTimeout(LOCK_TIMEOUT), Duration.ZERO, 256);
    Application.Builder builder =
        Application.builder()
            .storage(config)
            .flow(
                Flow.builder("worker")
                    .source(new VmListenerSource(QUEUE, 2, persistence))
                    .processor(record)
                    .build());
    if (produce) {
      builder.flow(
          Flow.builder("producer")
              .processor(new VmPublishProcessor(QUEUE, false, Duration.ofSeconds(30), true))
              .build());
    }
    Application app = builder.build();
    app.start();
    if (!produce) {
      var queue = app.storage().queue(VmPersistence.durableName(QUEUE), QueueOptions.DEFAULTS);
      while (queue.size() > 0) {
        Thread.sleep(20); // polls the queue it drains; not a test waiting
      }
      app.stop();
      System.exit(0);
    }
    List<Thread> producers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      String prefix = run + "-" + t + "-";
      producers.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    for (long n = 0; ; n++) {
                      String id = prefix + n;
                      app.send("producer", Message.of(id)).join();
                      enqueued.line("E " + id);
                    }
                  }));
    }
    for (Thread producer : producers) {
      producer.join();
    }
  }

  private static void store(StorageConfig config, Path logs, String run) throws Exception {
    Log puts = new Log(logs.resolve("puts.log"));
    Storage storage =
        Storages.open(
            config,
            StoredValues.create(SerializationConfig.defaults()),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            CrashChild.class.getClassLoader());
    ObjectStore store = storage.objectStore(STORE, ObjectStoreOptions.DEFAULTS);
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      String prefix = run + "-" + t + "-";
      writers.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    for (int n = 0; ; n++) {
                      String key = prefix + n;
                      store.put(key, n);
                      puts.line("P " + key + " " + n);
                      if (n % 10 == 9) {
                        String removed = prefix + (n - 5);
                        puts.line("X " + removed);
                        store.remove(removed);
                        puts.line("R " + removed);
                      }
                    }
                  }));
    }
    for (Thread writer : writers) {
      writer.join();
    }
  }

  /** Lines appended with one unbuffered write each. */
  private static final class Log {
    private final OutputStream out;

    Log(Path file) throws IOException {
      this.out = new FileOutputStream(file.toFile(), true);
    }

    synchronized void line(String text) {
      try {
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
