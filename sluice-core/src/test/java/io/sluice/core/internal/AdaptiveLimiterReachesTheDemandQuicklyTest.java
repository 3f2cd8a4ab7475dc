package io.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.internal.AdaptiveLimiter.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 40 callers, each making one-second blocking calls back to back, on a fake clock: every call takes
 * exactly one second, so latency is flat and only the limit holds the callers back.
 */
class AdaptiveLimiterReachesTheDemandQuicklyTest {

  private static final int CALLERS = 40;
  private static final Duration CALL = Duration.ofSeconds(1);

  private final FakeNanoTime time = new FakeNanoTime();
  private final AtomicInteger holding = new AtomicInteger();
  private final List<Thread> callers = new ArrayList<>();

  private void startCallers(AdaptiveLimiter limiter) {
    for (int i = 0; i < CALLERS; i++) {
      callers.add(
          Thread.ofVirtual()
              .name("caller-" + i)
              .start(
                  () -> {
                    try {
                      while (true) {
                        long granted = limiter.acquire(60, TimeUnit.SECONDS);
                        holding.incrementAndGet();
                        time.awaitPast(granted); // the call "takes" until the clock next moves
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
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              int inFlight = limiter.inFlight();
              return holding.get() == inFlight
                  && inFlight + limiter.waiting() == CALLERS
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

  @Test
  void fortyConcurrentOneSecondCallsRunFortyAtOnceWithinTwoRoundTrips() {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 10_000, time::now);
    startCallers(limiter);
    List<Integer> concurrencyPerSecond = new ArrayList<>();
    concurrencyPerSecond.add(settledConcurrency(limiter));
    for (int second = 1; second <= 2; second++) {
      time.advance(CALL);
      concurrencyPerSecond.add(settledConcurrency(limiter));
    }
    assertThat(concurrencyPerSecond).containsExactly(16, 32, 40);
  }

  @Test
  void underMoreDemandThanMaxLimitConcurrencyStaysAtMaxLimit() {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 24, time::now);
    startCallers(limiter);
    for (int second = 0; second < 5; second++) {
      assertThat(settledConcurrency(limiter)).isLessThanOrEqualTo(24);
      assertThat(limiter.limit()).isLessThanOrEqualTo(24);
      time.advance(CALL);
    }
    assertThat(settledConcurrency(limiter)).isEqualTo(24);
  }
}
