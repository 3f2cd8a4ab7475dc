package io.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.internal.AdaptiveLimiter.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Callers each making one-second blocking calls back to back, on a fake clock: every call takes
 * exactly one second, so latency is flat and only the limit holds the callers back. The first tests
 * turn growth on time off to show what answers alone do; the last ones show the burst from a cold
 * start met within a fraction of one call, and what stops that growth.
 */
class AdaptiveLimiterReachesTheDemandQuicklyTest {

  private static final Duration CALL = Duration.ofSeconds(1);
  private static final Duration PACE = Duration.ofNanos(AdaptiveLimiter.PACE_NANOS);

  /** No growth on time: what the answers alone do. */
  private static final long ANSWERS_ONLY = Long.MAX_VALUE;

  private final FakeNanoTime time = new FakeNanoTime();
  private final AtomicInteger holding = new AtomicInteger();
  private final List<Thread> callers = new ArrayList<>();

  private void startCallers(AdaptiveLimiter limiter, int count) {
    startCallers(limiter, count, Duration.ZERO);
  }

  /**
   * Callers whose calls end when the clock moves past their start plus {@code call} (zero: when it
   * next moves at all).
   */
  private void startCallers(AdaptiveLimiter limiter, int count, Duration call) {
    startCallers(limiter, count, call, false);
  }

  /** As above; {@code awaited}: each caller is a client's request (an HTTP listener's). */
  private void startCallers(AdaptiveLimiter limiter, int count, Duration call, boolean awaited) {
    for (int i = 0; i < count; i++) {
      callers.add(
          Thread.ofVirtual()
              .name("caller-" + i)
              .start(
                  () -> {
                    try {
                      while (true) {
                        AdaptiveLimiter.Permit granted =
                            limiter.acquire(60, TimeUnit.SECONDS, awaited);
                        holding.incrementAndGet();
                        // the call "takes" until the clock moves past its end
                        time.awaitPast(granted.grantedAt() + Math.max(0, call.toNanos() - 1));
                        holding.decrementAndGet();
                        limiter.release(granted, Outcome.SUCCESS);
                      }
                    } catch (InterruptedException e) {
                      // the test is over
                    }
                  }));
    }
  }

  /** Waits until every caller either holds a permit in a call or waits for one it cannot get. */
  private int settledConcurrency(AdaptiveLimiter limiter) {
    int count = callers.size();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              int inFlight = limiter.inFlight();
              return holding.get() == inFlight
                  && inFlight + limiter.waiting() == count
                  && (limiter.waiting() == 0 || inFlight >= limiter.limit());
            });
    return limiter.inFlight();
  }

  @AfterEach
  void stopCallers() throws InterruptedException {
    callers.forEach(Thread::interrupt);
    for (Thread caller : callers) {
      caller.join(5_000);
    }
  }

  /** Concurrency after each of {@code rounds} one-second round trips, the first at time zero. */
  private List<Integer> concurrencyPerSecond(AdaptiveLimiter limiter, int rounds) {
    List<Integer> concurrency = new ArrayList<>();
    concurrency.add(settledConcurrency(limiter));
    for (int second = 1; second < rounds; second++) {
      time.advance(CALL);
      concurrency.add(settledConcurrency(limiter));
    }
    return concurrency;
  }

  @Test
  void fortyConcurrentOneSecondCallsRunAllAtOnceFromTheFirstCallUnderTheDefaultLimit() {
    AdaptiveLimiter limiter =
        new AdaptiveLimiter(
            ProcessingStrategy.Auto.DEFAULT.initialLimit(), 10_000, time::now, ANSWERS_ONLY);
    startCallers(limiter, 40);
    assertThat(concurrencyPerSecond(limiter, 3)).containsExactly(40, 40, 40);
  }

  @Test
  void aThousandCallersRunAllAtOnceWithinThreeRoundTripsAsTheLimitQuadruples() {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 10_000, time::now, ANSWERS_ONLY);
    startCallers(limiter, 1_000);
    assertThat(concurrencyPerSecond(limiter, 5)).containsExactly(16, 64, 256, 1_000, 1_000);
  }

  @Test
  void withFewCallersWaitingSlowStartStillOnlyDoublesPerRoundTrip() {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 10_000, time::now, ANSWERS_ONLY);
    startCallers(limiter, 17);
    assertThat(concurrencyPerSecond(limiter, 2)).containsExactly(16, 17);
    assertThat(limiter.limit()).isEqualTo(32);
  }

  @Test
  void underMoreDemandThanMaxLimitConcurrencyStaysAtMaxLimit() {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 24, time::now, ANSWERS_ONLY);
    startCallers(limiter, 40);
    for (int second = 0; second < 5; second++) {
      assertThat(settledConcurrency(limiter)).isLessThanOrEqualTo(24);
      assertThat(limiter.limit()).isLessThanOrEqualTo(24);
      time.advance(CALL);
    }
    assertThat(settledConcurrency(limiter)).isEqualTo(24);
  }

  @Test
  void aBurstOfTenThousandFromAColdStartRunsAllAtOnceWithinTwoFifthsOfOneCall() {
    AdaptiveLimiter limiter =
        new AdaptiveLimiter(ProcessingStrategy.Auto.DEFAULT.initialLimit(), 10_000, time::now);
    startCallers(limiter, 10_000, CALL);
    assertThat(settledConcurrency(limiter)).isEqualTo(64);
    Duration firstGrowth = Duration.ofNanos(AdaptiveLimiter.FIRST_GROWTH_NANOS);
    Duration elapsed = Duration.ZERO;
    int concurrency = 64;
    while (concurrency < 10_000) {
      assertThat(elapsed).isLessThan(CALL.multipliedBy(2).dividedBy(5));
      time.advance(PACE);
      elapsed = elapsed.plus(PACE);
      awaitPaced(limiter);
      concurrency = settledConcurrency(limiter);
      if (elapsed.compareTo(firstGrowth) < 0) {
        // Nothing answered yet, but a downstream that answers in milliseconds would have: wait.
        assertThat(concurrency).as("at %s", elapsed).isEqualTo(64);
      }
    }
    // No call has ended yet: the limit grew on time alone, doubling each pace after the wait.
    assertThat(elapsed).isLessThan(CALL.multipliedBy(2).dividedBy(5));
  }

  @Test
  void aBurstOfTenThousandClientRequestsFromAColdStartRunsAllAtOnceWithinATenthOfOneCall() {
    AdaptiveLimiter limiter =
        new AdaptiveLimiter(ProcessingStrategy.Auto.DEFAULT.initialLimit(), 10_000, time::now);
    startCallers(limiter, 10_000, CALL, true);
    assertThat(settledConcurrency(limiter)).isEqualTo(64);
    List<Integer> concurrency = new ArrayList<>();
    while (concurrency.isEmpty() || concurrency.getLast() < 10_000) {
      time.advance(PACE);
      awaitPaced(limiter);
      concurrency.add(settledConcurrency(limiter));
    }
    // Their clients time out meanwhile: no first wait, the limit doubles from the first pace on.
    assertThat(concurrency).containsExactly(128, 256, 512, 1_024, 2_048, 4_096, 8_192, 10_000);
  }

  @Test
  void aClientRequestJoiningABacklogEndsTheFirstWait() {
    AdaptiveLimiter limiter =
        new AdaptiveLimiter(ProcessingStrategy.Auto.DEFAULT.initialLimit(), 10_000, time::now);
    startCallers(limiter, 1_000, CALL);
    assertThat(settledConcurrency(limiter)).isEqualTo(64);
    time.advance(PACE.multipliedBy(3));
    awaitPaced(limiter);
    assertThat(settledConcurrency(limiter)).as("a backlog alone waits").isEqualTo(64);
    // A client's request arrives 30 ms into the burst: past its first wait of one pace, the limit
    // grows as it comes.
    startCallers(limiter, 1, CALL, true);
    assertThat(settledConcurrency(limiter)).isEqualTo(128);
  }

  /** Waits until the pacer has looked at the clock since it last moved. */
  private void awaitPaced(AdaptiveLimiter limiter) {
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.pacedAt() >= time.now());
  }
}
