package io.sluice.core.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Asks every contributor at once, each on a virtual thread, and waits at most {@code deadline}: a
 * contributor that has not answered by then (a database that does not answer) is down, named with
 * the deadline it missed. The answer is kept for {@code reuse}, so a probe or a client asking in a
 * loop costs the store at most one round trip per interval.
 */
public final class Readiness {

  private final Supplier<List<? extends HealthContributor>> contributors;
  private final Duration deadline;
  private final Duration reuse;
  private final Clock clock;
  private State last;

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
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (HealthContributor contributor : all) {
        asked.add(CompletableFuture.supplyAsync(contributor::health, threads));
      }
      long end = System.nanoTime() + deadline.toNanos();
      List<HealthCheck> checks = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        checks.addAll(answer(all.get(i), asked.get(i), end));
      }
      threads.shutdownNow(); // a check still waiting is abandoned, not waited for
      return List.copyOf(checks);
    }
  }

  private List<HealthCheck> answer(
      HealthContributor contributor, CompletableFuture<List<HealthCheck>> asked, long end) {
    try {
      return asked.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      asked.cancel(true);
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
