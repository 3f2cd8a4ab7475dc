package io.sluice.core.testing;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The platform threads Sluice starts (every one is named {@code sluice-...}), and the assertion
 * that none outlives what started it: what the test kit's {@code NoLeakedThreads} checks after
 * every test. Threads of others (JUnit's, the JDK's, HikariCP's {@code HikariPool-*}, the
 * PostgreSQL driver's) have other names and are not Sluice's to stop. Virtual threads do not show
 * in {@link Thread#getAllStackTraces()}, so only platform threads are checked.
 */
public final class SluiceThreads {

  /** The name every thread Sluice starts begins with. */
  public static final String PREFIX = "sluice-";

  /** How long a thread may take to end after what started it stopped. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  private SluiceThreads() {}

  /** Live platform threads whose name starts with {@code prefix}. */
  public static List<Thread> alive(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith(prefix))
        .toList();
  }

  /** Live {@code sluice-} threads not in {@code before}. */
  public static List<Thread> startedSince(Collection<Thread> before) {
    Set<Thread> old = Set.copyOf(before);
    return alive(PREFIX).stream().filter(t -> !old.contains(t)).toList();
  }

  /**
   * Waits up to 5 s (a pool's last worker is still alive for a moment after the pool reports
   * termination) for every thread named {@code prefix...} to end; an AssertionError naming those
   * left.
   */
  public static void assertNoneAlive(String prefix) {
    assertNoneLeft(() -> alive(prefix), "threads named " + prefix + "*");
  }

  /**
   * Waits up to 5 s for {@code threads} to be empty; an AssertionError naming {@code what} and the
   * threads left, with where each one is.
   */
  public static void assertNoneLeft(Supplier<List<Thread>> threads, String what) {
    assertNoneLeft(threads, what, t -> "");
  }

  /**
   * {@link #assertNoneLeft(Supplier, String)}, each thread left described with {@code origin}'s
   * words on where it came from (empty for nothing).
   */
  public static void assertNoneLeft(
      Supplier<List<Thread>> threads, String what, Function<Thread, String> origin) {
    long deadline = System.nanoTime() + GRACE.toNanos();
    List<Thread> left = threads.get();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      try {
        left.getFirst().join(Duration.ofMillis(20));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what + " to end", e);
      }
      left = threads.get();
    }
    if (!left.isEmpty()) {
      throw new AssertionError(what + " still alive 5 s later: " + describe(left, origin));
    }
  }

  /** Each thread's name, state and the top of its stack. */
  public static String describe(List<Thread> threads) {
    return describe(threads, t -> "");
  }

  private static String describe(List<Thread> threads, Function<Thread, String> origin) {
    return threads.stream()
        .map(
            t ->
                t.getName()
                    + origin.apply(t)
                    + " ("
                    + t.getState()
                    + ") at "
                    + Arrays.stream(t.getStackTrace())
                        .limit(6)
                        .map(String::valueOf)
                        .collect(Collectors.joining(" <- ")))
        .collect(Collectors.joining("; "));
  }

  /**
   * The {@code sluice-} threads a test class and its tests start, to check that none outlives the
   * class: made as the class starts, told when each test starts and ends.
   */
  public static final class Watch {

    private final List<Thread> before = alive(PREFIX);
    private final Map<Thread, String> startedBy = new ConcurrentHashMap<>();

    /** Watches from now on. */
    public Watch() {}

    /** The threads alive as a test starts, to give to {@link #testEnded}. */
    public List<Thread> testStarting() {
      return alive(PREFIX);
    }

    /** Remembers that {@code test} started the threads alive now but not in {@code atStart}. */
    public void testEnded(List<Thread> atStart, String test) {
      for (Thread thread : startedSince(atStart)) {
        startedBy.putIfAbsent(thread, test);
      }
    }

    /**
     * Waits up to 5 s for every thread started since the watch was made to end; an AssertionError
     * naming each one left and the test that started it.
     */
    public void classEnded(String testClass) {
      assertNoneLeft(
          () -> startedSince(before),
          "threads started by " + testClass + " or its tests",
          t -> startedBy.containsKey(t) ? " started by " + startedBy.get(t) : "");
    }
  }
}
