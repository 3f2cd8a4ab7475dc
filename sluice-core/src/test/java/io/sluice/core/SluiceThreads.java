package io.sluice.core;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The platform threads Sluice starts (every one is named {@code sluice-...}), and the assertion
 * that none outlives what started it. Virtual threads do not show in {@link
 * Thread#getAllStackTraces()}, so only pool (platform) threads are checked.
 */
public final class SluiceThreads {

  private SluiceThreads() {}

  /** Live platform threads whose name starts with {@code prefix}. */
  public static List<Thread> alive(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith(prefix))
        .toList();
  }

  /** Live {@code sluice-} threads not in {@code before}. */
  static List<Thread> startedSince(Collection<Thread> before) {
    Set<Thread> old = Set.copyOf(before);
    return alive("sluice-").stream().filter(t -> !old.contains(t)).toList();
  }

  /**
   * Waits up to 5 s (a pool's last worker is still alive for a moment after the pool reports
   * termination) for every thread named {@code prefix...} to end; fails naming those left.
   */
  public static void assertNoneAlive(String prefix) {
    assertNoneLeft(() -> alive(prefix), "threads named " + prefix + "*");
  }

  static void assertNoneLeft(java.util.function.Supplier<List<Thread>> threads, String what) {
    try {
      await().atMost(Duration.ofSeconds(5)).until(() -> threads.get().isEmpty());
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(what + " still alive 5 s later: " + describe(threads.get()), e);
    }
  }

  static String describe(List<Thread> threads) {
    return threads.stream()
        .map(
            t ->
                t.getName()
                    + " ("
                    + t.getState()
                    + ") at "
                    + Arrays.stream(t.getStackTrace())
                        .limit(6)
                        .map(String::valueOf)
                        .collect(Collectors.joining(" <- ")))
        .collect(Collectors.joining("; "));
  }
}
