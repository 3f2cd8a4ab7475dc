package io.sluice.core.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Asks every contributor at once, each on a virtual thread, and waits at most {@code deadline}: a
 * contributor that has not answered by then (a database that does not answer) is down, named with
 * the deadline it missed, and its check is left running, not waited for. The answer is kept for
 * {@code reuse}, so a probe or a client asking in a loop costs the store at most one round trip per
 * interval.
 */
public final class Readiness {

  private final Supplier<List<? extends HealthContributor>> contributors;
  private final Duration deadline;
  private final Duration reuse;
  private final Clock clock;
  private State last;

  /** The check of each component still running or last run, by its name. */
  private final Map<String, CompletableFuture<List<HealthCheck>>> running = new HashMap<>();

  private record State(Instant at, List<HealthCheck> checks) {}

  /** Readiness of {@code contributors} (asked anew each time), answered within {@code deadline}. */
  public Readiness(
      Supplier<List<? extends HealthContributor>> contributors,
      Duration deadline,
      Duration reuse,
      Clock clock) {
    this.contributors = contributors;
    this.deadline = deadline;
    this.reuse = reuse;
    this.clock = clock;
  }

  /** The checks of every contributor, at most {@code reuse} old. */
  public synchronized List<HealthCheck> checks() {
    Instant now = clock.instant();
    if (last != null && Duration.between(last.at, now).compareTo(reuse) < 0) {
      return last.checks;
    }
    List<HealthCheck> checks = askAll();
    last = new State(clock.instant(), checks);
    return checks;
  }

  /** Whether every check is up. */
  public static boolean allUp(List<HealthCheck> checks) {
    return checks.stream().allMatch(HealthCheck::up);
  }

  private List<HealthCheck> askAll() {
    List<? extends HealthContributor> all = contributors.get();
    List<CompletableFuture<List<HealthCheck>>> asked = new ArrayList<>(all.size());
    for (HealthContributor contributor : all) {
      asked.add(ask(contributor));
    }
    long end = System.nanoTime() + deadline.toNanos();
    List<HealthCheck> checks = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      checks.addAll(answer(all.get(i), asked.get(i), end));
    }
    return List.copyOf(checks);
  }

  /**
   * The check of {@code contributor}, on a virtual thread of its own. A check still running from an
   * earlier ask (a database that does not answer, a socket read an interrupt does not end) is
   * waited for again rather than started once more: a probe asking every second while the store
   * hangs piles up no threads, and no answer ever waits past the deadline for it.
   */
  private CompletableFuture<List<HealthCheck>> ask(HealthContributor contributor) {
    synchronized (running) {
      CompletableFuture<List<HealthCheck>> earlier = running.get(contributor.component());
      if (earlier != null && !earlier.isDone()) {
        return earlier;
      }
      CompletableFuture<List<HealthCheck>> check = new CompletableFuture<>();
      running.put(contributor.component(), check);
      Thread.ofVirtual()
          .name("sluice-health-check")
          .start(
              () -> {
                try {
                  check.complete(contributor.health());
                } catch (Throwable e) {
                  check.completeExceptionally(e);
                }
              });
      return check;
    }
  }

  private List<HealthCheck> answer(
      HealthContributor contributor, CompletableFuture<List<HealthCheck>> asked, long end) {
    try {
      return asked.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return List.of(
          HealthCheck.down(
              contributor.component(), "did not answer within " + deadline.toMillis() + " ms"));
    } catch (ExecutionException e) {
      return List.of(
          HealthCheck.down(contributor.component(), "its check failed: " + e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of(HealthCheck.down(contributor.component(), "the check was interrupted"));
    }
  }
}
