package io.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.internal.AdaptiveLimiter.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The adaptive limit, driven call by call on a fake clock. */
class AdaptiveLimiterTest {

  private static final Duration LATENCY = Duration.ofMillis(100);

  private final FakeNanoTime time = new FakeNanoTime();

  private List<Long> acquireAll(AdaptiveLimiter limiter) throws InterruptedException {
    List<Long> granted = new ArrayList<>();
    for (long g; (g = limiter.acquire(0, TimeUnit.NANOSECONDS)) >= 0; ) {
      granted.add(g);
    }
    return granted;
  }

  /**
   * Every permit busy, one call ends after {@link #LATENCY}: the limit is what holds calls back.
   */
  private void oneSaturatedRoundTrip(AdaptiveLimiter limiter, Outcome outcome)
      throws InterruptedException {
    List<Long> granted = acquireAll(limiter);
    time.advance(LATENCY);
    limiter.release(granted.getFirst(), outcome);
    for (Long g : granted.subList(1, granted.size())) {
      limiter.release(g, Outcome.IGNORED);
    }
  }

  @Test
  void slowStartAddsOnePermitPerSuccessWhileEveryPermitIsBusyAndLatencyHolds() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 100, time::now);
    for (int i = 1; i <= 10; i++) {
      oneSaturatedRoundTrip(limiter, Outcome.SUCCESS);
      assertThat(limiter.limit()).isEqualTo(4 + i);
    }
  }

  @Test
  void theLimitDoesNotGrowWhenFewPermitsAreUsed() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 100, time::now);
    for (int i = 0; i < 10; i++) {
      long g = limiter.acquire(0, TimeUnit.NANOSECONDS);
      time.advance(LATENCY);
      limiter.release(g, Outcome.SUCCESS);
    }
    assertThat(limiter.limit()).isEqualTo(16);
  }

  @Test
  void theLimitNeverExceedsMaxLimitNorDoesConcurrency() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 9, time::now);
    for (int i = 0; i < 50; i++) {
      oneSaturatedRoundTrip(limiter, Outcome.SUCCESS);
      assertThat(limiter.limit()).isLessThanOrEqualTo(9);
    }
    assertThat(limiter.limit()).isEqualTo(9);
    assertThat(acquireAll(limiter)).hasSize(9);
  }

  @Test
  void aDroppedCallHalvesTheLimitAtMostOncePerRoundTrip() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(32, 100, time::now);
    oneSaturatedRoundTrip(limiter, Outcome.SUCCESS); // baseline: 100 ms, limit 33
    List<Long> granted = acquireAll(limiter);
    time.advance(LATENCY);
    for (Long g : granted) {
      limiter.release(g, Outcome.DROPPED); // 33 throttled replies in the same round trip
    }
    assertThat(limiter.limit()).isEqualTo(16);

    time.advance(LATENCY.multipliedBy(2));
    long g = limiter.acquire(0, TimeUnit.NANOSECONDS);
    time.advance(LATENCY);
    limiter.release(g, Outcome.DROPPED); // the next round trip
    assertThat(limiter.limit()).isEqualTo(8);
  }

  @Test
  void dropsBeforeAnyLatencyIsKnownStillHalveTheLimitOnlyOnce() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 100, time::now);
    List<Long> granted = acquireAll(limiter);
    time.advance(LATENCY);
    for (Long g : granted) {
      limiter.release(g, Outcome.DROPPED); // the service answers 429 to the first burst
    }
    assertThat(limiter.limit()).isEqualTo(8);
  }

  @Test
  void latencyRisingPastTwiceTheBaselineShrinksTheLimit() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(20, 100, time::now);
    oneSaturatedRoundTrip(limiter, Outcome.SUCCESS); // baseline 100 ms, limit 21
    long g = limiter.acquire(0, TimeUnit.NANOSECONDS);
    time.advance(LATENCY.multipliedBy(3));
    limiter.release(g, Outcome.SUCCESS);
    assertThat(limiter.limit()).isEqualTo(18);
  }

  @Test
  void failuresThatSayNothingAboutLoadLeaveTheLimitAlone() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 100, time::now);
    for (int i = 0; i < 5; i++) {
      oneSaturatedRoundTrip(limiter, Outcome.IGNORED);
    }
    assertThat(limiter.limit()).isEqualTo(4);
  }
}
