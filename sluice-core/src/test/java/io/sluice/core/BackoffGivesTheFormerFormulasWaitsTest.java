package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Each wait that grows was its own formula before {@link Backoff}; each is written out here as it
 * was, and the backoff that replaced it must give the same waits for the same settings, up to and
 * past the cap.
 */
class BackoffGivesTheFormerFormulasWaitsTest {

  private static final int ATTEMPTS = 200;

  /** PostgresListener, JdbcDurableQueue.take and JobNode.acquire: a Duration doubled, capped. */
  private static Duration[] doubledDurations(Duration first, Duration max, int count) {
    Duration[] waits = new Duration[count];
    Duration backoff = first;
    for (int i = 0; i < count; i++) {
      waits[i] = backoff;
      backoff = backoff.multipliedBy(2).compareTo(max) > 0 ? max : backoff.multipliedBy(2);
    }
    return waits;
  }

  @Test
  void thePostgresListenersReconnectWaitsAsBefore() {
    assertDoubling(Duration.ofMillis(100), Duration.ofSeconds(5));
  }

  @Test
  void theDurableQueuesTakeWaitsAsBeforeWhileItsStoreIsAway() {
    assertDoubling(Duration.ofMillis(50), Duration.ofSeconds(5));
  }

  @Test
  void theJobNodesAcquisitionWaitsAsBeforeWhileItsStoreIsAway() {
    assertDoubling(Duration.ofMillis(100), Duration.ofSeconds(5));
  }

  private static void assertDoubling(Duration first, Duration max) {
    // A Duration doubled ATTEMPTS times would overflow were it not capped: it stays at max.
    Duration[] before = doubledDurations(first, max, ATTEMPTS);
    Backoff backoff = Backoff.doubling(first, max);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      assertThat(backoff.delay(attempt)).as("attempt %d", attempt).isEqualTo(before[attempt]);
    }
    assertThat(backoff.delay(10_000)).isEqualTo(max);
    assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(max);
  }

  @Test
  void theQueueListenersRetryPausesInNanosecondsAsBefore() {
    long first = Duration.ofMillis(100).toNanos();
    long max = Duration.ofSeconds(5).toNanos();
    Backoff backoff = Backoff.doubling(Duration.ofMillis(100), Duration.ofSeconds(5));
    long pause = first;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      assertThat(backoff.delay(attempt).toNanos()).as("attempt %d", attempt).isEqualTo(pause);
      pause = Math.min(pause * 2, max);
    }
  }

  @Test
  void theAdaptiveLimitersProbePausesAsBefore() {
    long first = TimeUnit.SECONDS.toNanos(1);
    long max = TimeUnit.MINUTES.toNanos(1);
    Backoff backoff = Backoff.doubling(Duration.ofNanos(first), Duration.ofNanos(max));
    long pause = first;
    for (int doublings = 0; doublings < ATTEMPTS; doublings++) {
      assertThat(backoff.delay(doublings).toNanos()).as("doubled %d", doublings).isEqualTo(pause);
      pause = Math.min(max, pause * 2);
    }
    assertThat(backoff.delay(Integer.MAX_VALUE).toNanos()).isEqualTo(max);
  }

  @Test
  void theBatchThrottledPausesAsBeforeJitterIncluded() {
    Backoff backoff =
        Backoff.doubling(Duration.ofMillis(20), Duration.ofMillis(2_000))
            .withJitter(Backoff.Jitter.HALF_TO_FULL);
    Random before = new Random(11);
    Random after = new Random(11);
    // The retries a record gets (0 to 9), and a shift's whole range: 20 << 26 still fits an int.
    for (int retries = 0; retries <= 26; retries++) {
      long pause = Math.min(2_000L, 20L << retries);
      assertThat(backoff.delay(retries).toMillis()).as("retry %d", retries).isEqualTo(pause);
      for (int i = 0; i < 100; i++) {
        long jittered = before.nextLong(pause / 2, pause + 1);
        assertThat(backoff.delay(retries, after)).isEqualTo(Duration.ofMillis(jittered));
      }
    }
  }

  /** JobExecutorConfig.grown: retries, optimistic acquisition backoff and idle wait. */
  private static Duration grown(Duration first, double factor, int steps, Duration max) {
    double millis = first.toMillis() * Math.pow(factor, Math.max(0, steps));
    return millis >= max.toMillis() ? max : Duration.ofMillis(Math.round(millis));
  }

  @Test
  void theJobRetryAcquisitionAndIdleWaitsGrowAsBefore() {
    Duration[][] settings = {
      {Duration.ofSeconds(1), Duration.ofMinutes(10)}, // retryBackoff, maxRetryBackoff
      {Duration.ofMillis(10), Duration.ofMillis(250)}, // acquisitionBackoff, its max
      {Duration.ofMillis(1), Duration.ofMillis(1)},
      {Duration.ofMillis(333).plusNanos(7), Duration.ofHours(1).plusNanos(9)},
      {Duration.ZERO, Duration.ofMillis(250)},
    };
    double[] factors = {1, 1.1, 1.5, 2, 3.7, 100};
    int[] attempts = {-5, -1, 0, 1, 2, 3, 7, 10, 30, 31, 100, 1_000, 10_000, Integer.MAX_VALUE};
    for (Duration[] s : settings) {
      for (double factor : factors) {
        Backoff backoff = new Backoff(s[0], factor, s[1]);
        for (int attempt : attempts) {
          assertThat(backoff.delay(attempt))
              .as("%s ×%s up to %s, attempt %d", s[0], factor, s[1], attempt)
              .isEqualTo(grown(s[0], factor, attempt, s[1]));
        }
      }
    }
  }

  @Test
  void theJobNodesJitterSpreadsAsBefore() {
    Backoff.Jitter jitter = Backoff.Jitter.spread(0.2);
    Random before = new Random(5);
    Random after = new Random(5);
    for (long millis :
        new long[] {0, 1, 2, 3, 10, 250, 1_000, 30_000, TimeUnit.HOURS.toMillis(1)}) {
      Duration poll = Duration.ofMillis(millis);
      for (int i = 0; i < 200; i++) {
        Duration old =
            Duration.ofMillis(
                Math.max(1, Math.round(poll.toMillis() * before.nextDouble(0.8, 1.2))));
        assertThat(jitter.apply(poll, after)).isEqualTo(old);
      }
    }
  }
}
