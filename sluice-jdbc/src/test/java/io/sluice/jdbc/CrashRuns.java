package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.Storages;
import io.sluice.testkit.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the SIGKILL tests share: a child process ({@link CrashChild}) enqueues and consumes, or
 * puts, under load and is killed with SIGKILL at a random moment, {@link #KILLS} times in a row on
 * the same store. After the last restart every message whose enqueue returned has been delivered
 * (at least once; redeliveries are reported), and every put that returned is there.
 */
final class CrashRuns {

  private CrashRuns() {}

  static final int KILLS = 20;
  private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Starts the child {@link #KILLS} times, each time waiting until it has acknowledged a random
   * number of writes (its log grows) and then killing it.
   */
  static void killRepeatedly(String mode, String store, Path logs, long seed) throws Exception {
    Random random = new Random(seed);
    Path log = logs.resolve(mode.equals("queue") ? "enqueued.log" : "puts.log");
    for (int run = 0; run < KILLS; run++) {
      long before = lines(log);
      int writes = 20 + random.nextInt(400);
      Process child = start(mode, store, logs, run);
      try {
        await()
            .atMost(CHILD_TIMEOUT)
            .pollInterval(Duration.ofMillis(5))
            .until(() -> !child.isAlive() || lines(log) >= before + writes);
        assertThat(child.isAlive())
            .as("child %d died by itself; its output:%n%s", run, output(logs, run))
            .isTrue();
      } finally {
        child.destroyForcibly(); // SIGKILL on Linux
        child.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    }
  }

  private static Process start(String mode, String store, Path logs, int run) throws IOException {
    List<String> command =
        ChildJvm.command(CrashChild.class, mode, store, logs.toString(), Integer.toString(run));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(logs.resolve("child-" + run + ".out").toFile())
        .start();
  }

  static void verifyQueue(String store, Path logs, String name) throws Exception {
    Process drain = start("drain", store, logs, KILLS);
    assertThat(drain.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
        .as("the drain ended in time; its output:%n%s", output(logs, KILLS))
        .isTrue();
    assertThat(drain.exitValue()).as("drain output:%n%s", output(logs, KILLS)).isZero();

    Set<String> enqueued = new HashSet<>();
    for (String[] line : records(logs.resolve("enqueued.log"))) {
      enqueued.add(line[1]);
    }
    Map<String, Integer> deliveries = new HashMap<>();
    for (String[] line : records(logs.resolve("delivered.log"))) {
      deliveries.merge(line[1], 1, Integer::sum);
    }
    assertThat(enqueued).as("enqueued before the kills").hasSizeGreaterThan(KILLS * 20);
    Set<String> lost = new HashSet<>(enqueued);
    lost.removeAll(deliveries.keySet());
    assertThat(lost).as("messages whose enqueue returned but were never delivered").isEmpty();
    int total = deliveries.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        "%s queue, %d SIGKILLs: %d enqueued, %d delivered (%d distinct), %d redeliveries, 0 lost%n",
        name, KILLS, enqueued.size(), total, deliveries.size(), total - deliveries.size());
  }

  static void verifyStore(String store, Path logs) throws Exception {
    Map<String, Integer> expected = new HashMap<>();
    Set<String> removed = new HashSet<>();
    Set<String> removing = new HashSet<>();
    for (String[] line : records(logs.resolve("puts.log"))) {
      switch (line[0]) {
        case "P" -> expected.put(line[1], Integer.parseInt(line[2]));
        case "X" -> removing.add(line[1]);
        case "R" -> removed.add(line[1]);
        default -> throw new AssertionError("unexpected log line " + String.join(" ", line));
      }
    }
    // A remove under way when the kill came may or may not have happened: either is right.
    removing.forEach(expected::remove);
    assertThat(expected).as("puts that returned").hasSizeGreaterThan(KILLS * 20);
    try (Storage storage =
        Storages.open(
            CrashChild.config(store),
            StoredValues.create(SerializationConfig.defaults()),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            CrashRuns.class.getClassLoader())) {
      ObjectStore crash = storage.objectStore(CrashChild.STORE, ObjectStoreOptions.DEFAULTS);
      List<String> missing = new ArrayList<>();
      expected.forEach(
          (key, value) -> {
            if (!crash.get(key).map(value::equals).orElse(false)) {
              missing.add(key);
            }
          });
      assertThat(missing).as("puts that returned but are not there").isEmpty();
      for (String key : removed) {
        assertThat(crash.contains(key)).as("removed key %s", key).isFalse();
      }
      System.out.printf(
          "object store, %d SIGKILLs: %d acknowledged puts all present, %d removes all applied%n",
          KILLS, expected.size(), removed.size());
    }
  }

  /** The complete lines of a log, split on spaces (a line cut by the kill has no newline). */
  private static List<String[]> records(Path log) throws IOException {
    List<String[]> out = new ArrayList<>();
    if (!Files.exists(log)) {
      return out;
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    int end = text.lastIndexOf('\n');
    if (end < 0) {
      return out;
    }
    for (String line : text.substring(0, end).split("\n")) {
      out.add(line.split(" "));
    }
    return out;
  }

  private static long lines(Path log) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    try (var stream = Files.lines(log)) {
      return stream.count();
    }
  }

  private static String output(Path logs, int run) {
    try {
      return Files.readString(logs.resolve("child-" + run + ".out"));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
