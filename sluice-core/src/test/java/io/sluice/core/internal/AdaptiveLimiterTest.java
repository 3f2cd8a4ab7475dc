package io.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.internal.AdaptiveLimiter.Outcome;
import io.sluice.core.internal.AdaptiveLimiter.Permit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The adaptive limit, driven call by call on a fake clock. */
class AdaptiveLimiterTest {

  private static final Duration LATENCY = Duration.ofMillis(100);

  private final FakeNanoTime time = new FakeNanoTime();

  private List<Permit> acquireAll(AdaptiveLimiter limiter) throws InterruptedException {
    List<Permit> granted = new ArrayList<>();
    for (Permit g; (g = limiter.acquire(0, TimeUnit.NANOSECONDS)) != null; ) {
      granted.add(g);
    }
    return granted;
  }

  /**
   * Every permit busy, one call ends after {@link #LATENCY}: the limit is what holds calls back.
   */
  private void oneSaturatedRoundTrip(AdaptiveLimiter limiter, Outcome outcome)
      throws InterruptedException {
    List<Permit> granted = acquireAll(limiter);
    time.advance(LATENCY);
    limiter.release(granted.getFirst(), outcome);
    for (Permit g : granted.subList(1, granted.size())) {
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
      Permit g = limiter.acquire(0, TimeUnit.NANOSECONDS);
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
    List<Permit> granted = acquireAll(limiter);
    time.advance(LATENCY);
    for (Permit g : granted.reversed()) {
      // the calls past 30 at once refused, in the same round trip
      limiter.release(g, g.concurrency() > 30 ? Outcome.DROPPED : Outcome.IGNORED);
    }
    assertThat(limiter.limit()).isEqualTo(16);
    assertThat(limiter.ceiling()).isEqualTo(30);

    time.advance(LATENCY.multipliedBy(2));
    Permit g = limiter.acquire(0, TimeUnit.NANOSECONDS);
    time.advance(LATENCY);
    limiter.release(g, Outcome.DROPPED); // the next round trip
    assertThat(limiter.limit()).isEqualTo(8);
  }

  @Test
  void aBurstRefusedWholeBeforeAnyLatencyIsKnownHalvesTheLimitOnceAndSetsTheCeilingUnderIt()
      throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 100, time::now);
    List<Permit> granted = acquireAll(limiter);
    time.advance(LATENCY);
    for (Permit g : granted.reversed()) {
      limiter.release(g, Outcome.DROPPED); // the service answers 429 to the first burst
    }
    // Halved once (to 8), not once per call (to 1); the calls refused with 8 and more in flight
    // (half the limit they were made under, and more) put the ceiling at 7.
    assertThat(limiter.ceiling()).isEqualTo(7);
    assertThat(limiter.limit()).isEqualTo(7);
  }

  @Test
  void latencyStayingPastTwiceTheBaselineShrinksTheLimitWhereOneSlowCallDoesNot() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(20, 100, time::now);
    oneSaturatedRoundTrip(limiter, Outcome.SUCCESS); // baseline 100 ms, limit 21
    Permit g = limiter.acquire(0, TimeUnit.NANOSECONDS);
    time.advance(LATENCY.multipliedBy(3));
    limiter.release(g, Outcome.SUCCESS);
    assertThat(limiter.limit()).isEqualTo(21); // a garbage collection, a busy moment

    List<Integer> limits = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      g = limiter.acquire(0, TimeUnit.NANOSECONDS);
      time.advance(LATENCY.multipliedBy(3));
      limiter.release(g, Outcome.SUCCESS);
      limits.add(limiter.limit());
    }
    // The recent average passes 200 ms at the seventh call of 300 ms; then a tenth per round trip.
    assertThat(limits).containsExactly(21, 21, 21, 21, 21, 18, 16, 14, 12, 10);
  }

  @Test
  void failuresThatSayNothingAboutLoadLeaveTheLimitAlone() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 100, time::now);
    for (int i = 0; i < 5; i++) {
      oneSaturatedRoundTrip(limiter, Outcome.IGNORED);
    }
    assertThat(limiter.limit()).isEqualTo(4);
  }

  /**
   * Every permit busy; every call ends after {@link #LATENCY}, the last one granted (the most in
   * flight) first, as {@code last}.
   */
  private void fullRoundTrip(AdaptiveLimiter limiter, Outcome last) throws InterruptedException {
    List<Permit> granted = acquireAll(limiter);
    time.advance(LATENCY);
    limiter.release(granted.getLast(), last);
    for (Permit g : granted.subList(0, granted.size() - 1)) {
      limiter.release(g, Outcome.SUCCESS);
    }
  }

  /** How many saturated round trips of successes pass before the limit grows past {@code at}. */
  private int roundTripsHeldAt(AdaptiveLimiter limiter, int at) throws InterruptedException {
    int held = 0;
    while (limiter.limit() <= at) {
      assertThat(limiter.limit()).isEqualTo(at);
      fullRoundTrip(limiter, Outcome.SUCCESS);
      held++;
      assertThat(held).as("round trips at %d", at).isLessThan(1_000);
    }
    return held;
  }

  @Test
  void aThrottlingAtTheLimitLeavesACeilingRegainedAtOnceAndProbedAboveAfterAGrowingPause()
      throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(20, 100, time::now);
    // A service that refuses a 20th concurrent call: one call of twenty gets a 429.
    fullRoundTrip(limiter, Outcome.DROPPED);
    // Halved to 10, then back to 19 within the same round trip's successes, and no further.
    assertThat(limiter.ceiling()).isEqualTo(19);
    assertThat(limiter.limit()).isEqualTo(19);

    // It probes a 20th call only after a second (ten round trips of 100 ms; growing by one then
    // takes two more here, where half the calls of a round trip end with little in flight)...
    assertThat(roundTripsHeldAt(limiter, 19)).isBetween(10, 12);
    assertThat(limiter.limit()).isEqualTo(20);
    // ... which is refused again: the next probe waits twice as long, then four times.
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(limiter.limit()).isEqualTo(19);
    assertThat(roundTripsHeldAt(limiter, 19)).isBetween(20, 22);
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(roundTripsHeldAt(limiter, 19)).isBetween(40, 42);
  }

  @Test
  void aProbeThatPassesTwoPermitsAboveTheCeilingForgetsIt() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(20, 100, time::now);
    fullRoundTrip(limiter, Outcome.DROPPED);
    roundTripsHeldAt(limiter, 19);
    // The service's cap was raised: 20 and 21 calls pass.
    while (limiter.limit() < 21) {
      fullRoundTrip(limiter, Outcome.SUCCESS);
    }
    assertThat(limiter.ceiling()).isEqualTo(Integer.MAX_VALUE);
    // A later throttling starts over with the first, short pause.
    while (limiter.limit() < 30) {
      fullRoundTrip(limiter, Outcome.SUCCESS);
    }
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(limiter.ceiling()).isEqualTo(29);
    assertThat(roundTripsHeldAt(limiter, 29)).isBetween(10, 12);
  }

  @Test
  void aRefusalByChanceAtTheCapDoesNotLetTheNextProbeForgetTheCap() throws Exception {
    // A service that serves 21 calls at once and refuses the 22nd.
    AdaptiveLimiter limiter = new AdaptiveLimiter(22, 100, time::now);
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(limiter.ceiling()).isEqualTo(21);
    // Once, it still counted a call this side saw end: the 21st is refused.
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(limiter.ceiling()).isEqualTo(20);
    assertThat(roundTripsHeldAt(limiter, 20)).isBetween(20, 22);
    // The probe passes 21 and reaches 22, refused as before: the ceiling stays, the pause doubles.
    while (limiter.limit() < 22) {
      fullRoundTrip(limiter, Outcome.SUCCESS);
    }
    assertThat(limiter.ceiling()).isEqualTo(20);
    fullRoundTrip(limiter, Outcome.DROPPED);
    assertThat(limiter.ceiling()).isEqualTo(20);
    assertThat(roundTripsHeldAt(limiter, 20)).isBetween(40, 42);
  }

  @Test
  void aThrottlingWithFewCallsInFlightHalvesTheLimitButLeavesNoCeiling() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(16, 100, time::now);
    Permit g = limiter.acquire(0, TimeUnit.NANOSECONDS);
    time.advance(LATENCY);
    limiter.release(g, Outcome.DROPPED); // a rate limit, not a concurrency one
    assertThat(limiter.limit()).isEqualTo(8);
    assertThat(limiter.ceiling()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void anInterruptedWaiterTakesNoPermitAndTheFreedOneGoesToTheNext() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(1, 1, time::now);
    Permit held = limiter.acquire(0, TimeUnit.NANOSECONDS);
    AtomicInteger through = new AtomicInteger();
    List<Thread> waiters = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      waiters.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      limiter.acquire(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
                      through.incrementAndGet(); // holds its permit: the next waits for it
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() == 50);
    // A waiter interrupted while it waits passes nothing on, and takes nothing.
    waiters.getFirst().interrupt();
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() == 49);
    limiter.release(held, Outcome.IGNORED);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> through.get() == 1 && limiter.waiting() == 48);
    assertThat(limiter.inFlight()).isEqualTo(1);
    waiters.forEach(Thread::interrupt);
    for (Thread waiter : waiters) {
      waiter.join(5_000);
    }
    assertThat(limiter.waiting()).isZero();
  }

  /** Callers that wait for a permit and hand it to the test, which ends their calls. */
  private List<Thread> waitForPermits(
      AdaptiveLimiter limiter, int count, java.util.Queue<Permit> granted) {
    List<Thread> waiters = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      waiters.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      Permit permit = limiter.acquire(60, TimeUnit.SECONDS);
                      if (permit != null) {
                        granted.add(permit);
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
    }
    return waiters;
  }

  private void advanceAPace(AdaptiveLimiter limiter, Duration by) {
    time.advance(by);
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.pacedAt() >= time.now());
  }

  @Test
  void growthOnTimeWaitsWhileTheCallsInFlightGoUnansweredPastTwiceTheRoundTrip() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 1_000, time::now);
    List<Permit> first = acquireAll(limiter);
    time.advance(LATENCY);
    limiter.release(first.getLast(), Outcome.SUCCESS); // a round trip of 100 ms is known
    acquireAll(limiter);
    int limit = limiter.limit();
    java.util.Queue<Permit> granted = new java.util.concurrent.ConcurrentLinkedQueue<>();
    List<Thread> waiters = waitForPermits(limiter, 200, granted);
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() == 200);
    // 250 ms and then more without one answer: the downstream stalls, the limit holds.
    advanceAPace(limiter, LATENCY.multipliedBy(5).dividedBy(2));
    advanceAPace(limiter, Duration.ofNanos(AdaptiveLimiter.PACE_NANOS));
    assertThat(limiter.limit()).isEqualTo(limit);
    // An answer comes: the next pace grows the limit again, doubling it.
    limiter.release(first.getFirst(), Outcome.SUCCESS);
    int afterAnswer = limiter.limit();
    advanceAPace(limiter, Duration.ofNanos(AdaptiveLimiter.PACE_NANOS));
    assertThat(limiter.limit()).isEqualTo(2 * afterAnswer);
    waiters.forEach(Thread::interrupt);
  }

  @Test
  void latencyGoingBadAfterGrowthOnTimeTakesTheLimitBackToTheLastTimelyConcurrency()
      throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(4, 1_000, time::now);
    List<Permit> first = acquireAll(limiter);
    Duration call = Duration.ofSeconds(1); // calls of a second, as growth on time is for
    time.advance(call);
    limiter.release(first.getLast(), Outcome.SUCCESS); // in time, at a concurrency of 4
    acquireAll(limiter);
    java.util.Queue<Permit> granted = new java.util.concurrent.ConcurrentLinkedQueue<>();
    List<Thread> waiters = waitForPermits(limiter, 100, granted);
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() == 100);
    while (granted.size() < 100) {
      advanceAPace(limiter, Duration.ofNanos(AdaptiveLimiter.PACE_NANOS));
      await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() + granted.size() == 100);
    }
    assertThat(limiter.limit()).isGreaterThanOrEqualTo(100);
    // The calls admitted on time come back ten times slower: the limit falls at once, not by a
    // tenth per round trip.
    time.advance(call.multipliedBy(10));
    limiter.release(granted.poll(), Outcome.SUCCESS);
    limiter.release(granted.poll(), Outcome.SUCCESS);
    assertThat(limiter.limit()).isLessThanOrEqualTo(4);
    waiters.forEach(Thread::interrupt);
  }

  @Test
  void aRefusalWithinTheFirstWaitOfABurstEndsSlowStartBeforeAnyGrowthOnTime() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(64, 10_000, time::now);
    List<Permit> first = acquireAll(limiter);
    java.util.Queue<Permit> granted = new java.util.concurrent.ConcurrentLinkedQueue<>();
    List<Thread> waiters = waitForPermits(limiter, 1_000, granted);
    await().atMost(Duration.ofSeconds(10)).until(() -> limiter.waiting() == 1_000);
    // 100 ms without an answer (ten paces), then the downstream refuses: the limit had not grown.
    advanceAPace(limiter, LATENCY);
    limiter.release(first.getLast(), Outcome.DROPPED);
    assertThat(limiter.limit()).isEqualTo(32);
    time.advance(Duration.ofSeconds(1));
    assertThat(limiter.limit()).isLessThanOrEqualTo(32);
    assertThat(granted).isEmpty();
    waiters.forEach(Thread::interrupt);
  }

  @Test
  void aCallerQueuedWithoutAThreadGetsTheNextFreedPermitInOrder() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(1, 1, time::now);
    CompletableFuture<Permit> first = limiter.acquireLater(false);
    assertThat(first).as("room: granted at once").isDone();
    CompletableFuture<Permit> second = limiter.acquireLater(false);
    CompletableFuture<Permit> third = limiter.acquireLater(true);
    assertThat(second).isNotDone();
    assertThat(limiter.waiting()).isEqualTo(2);
    limiter.release(first.join(), Outcome.SUCCESS);
    assertThat(second).isDone();
    assertThat(third).isNotDone();
    assertThat(limiter.inFlight()).isEqualTo(1);
    assertThat(limiter.waiting()).isEqualTo(1);
    limiter.release(second.join(), Outcome.IGNORED);
    assertThat(third).isDone();
    assertThat(limiter.waiting()).isZero();
  }

  @Test
  void aQueuedCallerThatGivesUpLeavesTheQueueAndAGrantedOneMustRelease() throws Exception {
    AdaptiveLimiter limiter = new AdaptiveLimiter(1, 1, time::now);
    Permit held = limiter.acquireLater(false).join();
    CompletableFuture<Permit> givesUp = limiter.acquireLater(false);
    CompletableFuture<Permit> next = limiter.acquireLater(false);
    assertThat(limiter.withdraw(givesUp)).isTrue();
    assertThat(givesUp).isCancelled();
    assertThat(limiter.waiting()).isEqualTo(1);
    limiter.release(held, Outcome.SUCCESS);
    assertThat(next).as("the freed permit skips the caller that gave up").isDone();
    assertThat(limiter.withdraw(next)).as("granted already").isFalse();
    assertThat(limiter.inFlight()).isEqualTo(1);
  }
}
