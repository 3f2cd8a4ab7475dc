package io.sluice.core.internal;

import io.sluice.core.Backoff;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A semaphore whose number of permits moves by itself: the adaptive concurrency limit of one flow's
 * BLOCKING_IO work.
 *
 * <p>It starts in slow start: while calls are using most of the limit and their latency stays near
 * the best seen, every success adds one permit (the limit doubles each round trip, as TCP's window
 * does), and up to {@value #SLOW_START_STEP} while callers wait for a permit, so a burst far larger
 * than the limit is met within a few round trips (the limit quadruples per round trip) without
 * running past the callers actually waiting. A throttling reply or a timeout ({@link
 * Outcome#DROPPED}) halves the limit, at most once per round trip, and ends slow start; recent
 * latency (an average weighted {@value #RECENT_WEIGHT} per call, so one slow call is not a trend)
 * more than twice the baseline shrinks it by a tenth. After slow start the limit grows by one per
 * round trip of successes while latency holds. The baseline decays slowly toward recent latency so
 * a service that got slower for good is not punished forever.
 *
 * <p>A throttling reply to a call made while at least half the limit was in use also leaves a
 * ceiling: one less than the calls then in flight. Below it the limit grows back as in slow start
 * (a halving costs a round trip, not twenty); at it the limit holds, and it probes above only after
 * a pause, {@link #FIRST_PROBE_PAUSE_NANOS} after the first throttling and twice as long after each
 * throttling that follows, up to {@link #MAX_PROBE_PAUSE_NANOS}. A service that caps concurrency is
 * so asked past its cap once, then rarely. A refusal at the cap by chance (the service still
 * counting a call this side saw end) lowers the ceiling by one, but a probe forgets the ceiling
 * only once the limit grows past every concurrency refused since it was set.
 *
 * <p>In slow start the limit also grows with time, not only with completions: while callers wait
 * for a permit, every {@link #PACE_NANOS} it may double (by at most the callers waiting), from
 * {@link #FIRST_GROWTH_NANOS} after the first caller of a burst had to wait, or from one pace after
 * it when a caller is <em>awaited</em> (a client waits for its answer: an HTTP request). Growth by
 * completions alone is paced by the round trip, so a burst of 10,000 one-second calls from a cold
 * start waited seconds for permits before its own second began. The first wait is for a backlog (a
 * batch's records, a queue's messages), which waiting costs only time: long enough for the first
 * answers of a downstream that answers in milliseconds, so a capped service refuses few calls. A
 * client's request cannot afford it: its client times out, and the wait alone put E3's p99 from a
 * cold start 200 ms behind the bare Netty server's. Time growth stops with slow start (the first
 * refusal or slowing) and while the calls in flight have gone unanswered for more than twice the
 * round trip known so far (a downstream that stalls). When latency then says the downstream slowed,
 * the limit falls at once to the concurrency of the last call that came back in time, not by a
 * tenth per round trip: what time growth added without evidence is taken back.
 *
 * <p>A permit freed wakes one waiting caller, not all of them: thousands of callers may wait here
 * (a batch step's records), and waking them all on every release would cost more than the calls.
 * One waiter at a time (the pacer) waits with a timer, so time growth needs no thread of its own.
 *
 * <p>A caller may also wait holding no thread ({@link #acquireLater}: a scope that waits, such as
 * an HTTP call): it is queued, counts among the callers waiting as a thread does, and takes a freed
 * permit before the threads waiting are woken. With no thread of its own, it lets the limit grow on
 * time when it arrives, not on a timer.
 */
final class AdaptiveLimiter {

  /** How a call that held a permit ended. */
  enum Outcome {
    /** It completed; its latency counts. */
    SUCCESS,
    /** It was throttled or timed out: a sign of overload. */
    DROPPED,
    /** It failed for a reason that says nothing about load. */
    IGNORED
  }

  /** The most permits one success adds in slow start, when callers wait for a permit. */
  static final int SLOW_START_STEP = 3;

  /** How long the limit holds at a ceiling before it first probes above. */
  static final long FIRST_PROBE_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The longest the limit holds at a ceiling before it probes above. */
  static final long MAX_PROBE_PAUSE_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** The pause before a probe above a ceiling, by the throttlings that doubled it. */
  private static final Backoff PROBE_PAUSE =
      Backoff.doubling(
          Duration.ofNanos(FIRST_PROBE_PAUSE_NANOS), Duration.ofNanos(MAX_PROBE_PAUSE_NANOS));

  /** How often the limit may double by time while callers wait in slow start. */
  static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /**
   * How long a burst of callers nobody awaits waits without any answer before the limit first grows
   * on time (awaited callers wait one pace).
   */
  static final long FIRST_GROWTH_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** The weight of each call's latency in the recent average compared with the baseline. */
  static final double RECENT_WEIGHT = 0.1;

  /**
   * A permit granted at {@code grantedAt} (nanoTime), with {@code concurrency} calls in flight
   * counting its own, under {@code limit}: a refusal says that concurrency was too much.
   */
  record Permit(long grantedAt, int concurrency, int limit) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private final LinkedHashSet<Queued> queued = new LinkedHashSet<>();
  private final int minLimit;
  private final int maxLimit;
  private final LongSupplier nanoTime;
  private final long paceNanos;

  private int limit;
  private int inFlight;
  private boolean slowStart = true;
  private double baselineNanos = Double.NaN;
  private long lastDecreaseNanos;
  private boolean decreased;
  private double growthCredit;
  private long waiting;
  private long awaitedWaiting;
  private int ceiling = Integer.MAX_VALUE;
  private int probeDoublings;
  private long probeAtNanos;
  private boolean regaining;
  private int refusedMax;
  private double recentNanos = Double.NaN;
  private long lastPaceNanos;
  private long pacingSinceNanos;
  private long lookedAtNanos;
  private long lastAnswerNanos;
  private boolean pacerWaiting;
  private boolean pacing;
  private boolean grownOnTime;
  private int lastTimelyConcurrency;

  AdaptiveLimiter(int initialLimit, int maxLimit) {
    this(initialLimit, maxLimit, System::nanoTime, PACE_NANOS);
  }

  /** A limiter reading time from {@code nanoTime}, which tests drive by hand. */
  AdaptiveLimiter(int initialLimit, int maxLimit, LongSupplier nanoTime) {
    this(initialLimit, maxLimit, nanoTime, PACE_NANOS);
  }

  /**
   * A limiter reading time from {@code nanoTime}, growing on time every {@code paceNanos} in slow
   * start ({@code Long.MAX_VALUE}: never, to test growth by answers).
   */
  AdaptiveLimiter(int initialLimit, int maxLimit, LongSupplier nanoTime, long paceNanos) {
    this.nanoTime = nanoTime;
    this.paceNanos = paceNanos;
    this.minLimit = 1;
    this.maxLimit = maxLimit;
    this.limit = initialLimit;
    this.lastAnswerNanos = nanoTime.getAsLong();
  }

  /**
   * Waits for a permit for a caller nobody awaits; returns it, or null when none came within the
   * timeout.
   */
  Permit acquire(long timeout, TimeUnit unit) throws InterruptedException {
    return acquire(timeout, unit, false);
  }

  /**
   * Waits for a permit; returns it, or null when none came within the timeout. {@code awaited}: a
   * client waits for this call's answer, so a burst it is part of grows the limit on time without
   * the first wait.
   */
  Permit acquire(long timeout, TimeUnit unit, boolean awaited) throws InterruptedException {
    boolean forever = timeout == Long.MAX_VALUE;
    long remaining = unit.toNanos(timeout);
    lock.lock();
    try {
      waiting++;
      if (awaited) {
        awaitedWaiting++;
      }
      boolean granted = false;
      boolean pacer = false;
      try {
        while (inFlight >= limit) {
          if (remaining <= 0 && !forever) {
            return null;
          }
          if (growOnTime()) {
            continue;
          }
          boolean timed = pacing && (pacer || !pacerWaiting) && limit < maxLimit;
          if (timed != pacer) {
            // The one waiter with a timer lets the limit grow on time while all others park; the
            // role ends with pacing.
            pacer = timed;
            pacerWaiting = timed;
          }
          if (pacer) {
            long slept = forever ? paceNanos : Math.min(remaining, paceNanos);
            long left = released.awaitNanos(slept);
            if (!forever) {
              remaining -= slept - left;
            }
          } else if (forever) {
            // No deadline, so no timer: a parked virtual thread with a timeout schedules one.
            released.await();
          } else {
            remaining = released.awaitNanos(remaining);
          }
        }
        granted = true;
      } finally {
        waiting--;
        if (awaited) {
          awaitedWaiting--;
        }
        if (waiting == 0) {
          pacing = false; // the burst is served: the next one starts the clock afresh
        }
        if (pacer) {
          pacerWaiting = false;
          if (pacing) {
            // Hand the timer on: a parked waiter wakes, finds no room, and becomes the pacer.
            released.signal();
          }
        }
        if (!granted) {
          // This caller may have been woken for a permit it now leaves (timed out, interrupted):
          // the wake-up goes on to the next caller.
          signalRoom();
        }
      }
      inFlight++;
      return new Permit(nanoTime.getAsLong(), inFlight, limit);
    } finally {
      lock.unlock();
    }
  }

  /** A caller waiting for a permit without a thread: the future the permit completes. */
  private static final class Queued extends CompletableFuture<Permit> {
    private final boolean awaited;

    Queued(boolean awaited) {
      this.awaited = awaited;
    }
  }

  /**
   * A permit without waiting on a thread: the future is done at once when the limit has room, else
   * it completes when a permit frees (on the thread that frees it). {@code awaited} as for {@link
   * #acquire(long, TimeUnit, boolean)}. A caller that gives up calls {@link #withdraw}.
   */
  CompletableFuture<Permit> acquireLater(boolean awaited) {
    lock.lock();
    try {
      if (inFlight < limit) {
        inFlight++;
        return CompletableFuture.completedFuture(new Permit(nanoTime.getAsLong(), inFlight, limit));
      }
      Queued caller = new Queued(awaited);
      queued.add(caller);
      waiting++;
      if (awaited) {
        awaitedWaiting++;
      }
      // No timer waits for this caller: its arrival is when the limit may grow on time.
      growOnTime();
      return caller;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes a caller of {@link #acquireLater} out of the queue (its future is cancelled); false when
   * it was granted its permit already, which it must then release.
   */
  boolean withdraw(CompletableFuture<Permit> permit) {
    lock.lock();
    try {
      if (!(permit instanceof Queued caller) || !queued.remove(caller)) {
        return false;
      }
      leaveQueue(caller);
    } finally {
      lock.unlock();
    }
    permit.cancel(false);
    return true;
  }

  private void leaveQueue(Queued caller) {
    waiting--;
    if (caller.awaited) {
      awaitedWaiting--;
    }
    if (waiting == 0) {
      pacing = false;
    }
  }

  /** Returns a permit, reporting how the call ended. */
  void release(Permit permit, Outcome outcome) {
    long now = nanoTime.getAsLong();
    lock.lock();
    try {
      int usedAtRelease = inFlight;
      inFlight--;
      adjust(now - permit.grantedAt(), now, outcome, usedAtRelease, permit);
      signalRoom();
    } finally {
      lock.unlock();
    }
  }

  /**
   * In slow start, with callers waiting and every permit busy, doubles the limit (by at most the
   * callers waiting) once per pace; not while the calls in flight have gone unanswered for more
   * than twice the known round trip. The first caller to wait only starts the clock, so refusals a
   * downstream answers at once arrive before any time growth. Returns whether the limit grew.
   */
  private boolean growOnTime() {
    if (!slowStart || limit >= maxLimit || paceNanos == Long.MAX_VALUE) {
      pacing = false;
      return false;
    }
    long now = nanoTime.getAsLong();
    lookedAtNanos = now;
    if (!pacing) {
      pacing = true;
      pacingSinceNanos = now;
      lastPaceNanos = now;
      return false;
    }
    // A backlog's first growth waits: long enough for the first answers of a downstream that
    // answers in milliseconds (E1's capped service, its first calls slowed by connecting, answered
    // after 80-190 ms; growing before that sent thousands of calls it refused), short against the
    // one-second calls growth on time is for. An awaited caller's client is timing out meanwhile.
    long firstWait = awaitedWaiting > 0 ? paceNanos : FIRST_GROWTH_NANOS;
    if (now - pacingSinceNanos < firstWait || now - lastPaceNanos < paceNanos) {
      return false;
    }
    lastPaceNanos = now;
    if (!Double.isNaN(baselineNanos) && now - lastAnswerNanos > 2 * baselineNanos) {
      return false;
    }
    limit = (int) Math.min(maxLimit, limit + Math.min(limit, waiting));
    grownOnTime = true;
    signalRoom();
    return true;
  }

  /**
   * Gives the free permits to the callers queued without a thread, in order, then wakes as many
   * waiting threads as there are permits left (the limit may have grown by more than one).
   */
  private void signalRoom() {
    Iterator<Queued> next = queued.iterator();
    while (inFlight < limit && next.hasNext()) {
      Queued caller = next.next();
      next.remove();
      leaveQueue(caller);
      inFlight++;
      // What follows the grant must not block: the lock is held (AutoEngine starts a thread).
      caller.complete(new Permit(nanoTime.getAsLong(), inFlight, limit));
    }
    long wake = Math.min(waiting, (long) limit - inFlight);
    for (long i = 0; i < wake; i++) {
      released.signal();
    }
  }

  private void adjust(long latency, long now, Outcome outcome, int used, Permit permit) {
    switch (outcome) {
      case IGNORED -> {
        return;
      }
      case DROPPED -> {
        throttled(now, latency, permit);
        return;
      }
      case SUCCESS -> {}
    }
    lastAnswerNanos = now;
    if (Double.isNaN(baselineNanos) || latency < baselineNanos) {
      baselineNanos = latency;
    } else {
      baselineNanos += (latency - baselineNanos) * 0.001;
    }
    recentNanos =
        Double.isNaN(recentNanos) ? latency : recentNanos + (latency - recentNanos) * RECENT_WEIGHT;
    if (recentNanos > 2 * baselineNanos) {
      if (grownOnTime && slowStart && lastTimelyConcurrency > 0) {
        // The limit grew on time past what the answers vouched for: back to the last concurrency
        // that came back in time.
        limit = Math.min(limit, Math.max(minLimit, lastTimelyConcurrency));
        grownOnTime = false;
      }
      if (decrease(now, 0.9, latency)) {
        // Slower, not refused: grow back one permit per round trip, not at once.
        regaining = false;
      }
      return;
    }
    if (latency <= 2 * baselineNanos) {
      lastTimelyConcurrency = permit.concurrency();
    }
    // Grow only when the limit is what holds calls back, not when demand is low.
    boolean saturated = used * 2 >= limit || waiting > 0;
    if (!saturated || limit >= maxLimit) {
      return;
    }
    boolean known = ceiling != Integer.MAX_VALUE;
    if (slowStart || (regaining && known && limit < ceiling)) {
      int step = (int) Math.clamp(waiting, 1, SLOW_START_STEP);
      limit = Math.min(known ? Math.min(maxLimit, ceiling) : maxLimit, limit + step);
    } else if (limit != ceiling || now - probeAtNanos >= 0) {
      growthCredit += 1.0 / limit;
      if (growthCredit >= 1.0) {
        growthCredit -= 1.0;
        limit++;
        if (known && limit > refusedMax) {
          // Every concurrency refused since the ceiling was set passed a round trip: the cap was
          // raised or is gone.
          ceiling = Integer.MAX_VALUE;
          refusedMax = 0;
          probeDoublings = 0;
          regaining = false;
        }
      }
    }
  }

  /**
   * A call refused as overload: the limit halves (once per round trip), and if the call was made
   * with at least half the limit then in use, the refused concurrency sets the ceiling; the pause
   * before the next probe above doubles when a ceiling was known already. Refusals in the round
   * trip after a halving only lower the ceiling to their own concurrency.
   */
  private void throttled(long now, long latency, Permit permit) {
    int concurrency = permit.concurrency();
    boolean halved = decrease(now, 0.5, latency);
    if (concurrency * 2 < permit.limit()) {
      return; // few calls in flight: a rate refused, not a concurrency
    }
    boolean known = ceiling != Integer.MAX_VALUE;
    if (halved || !known) {
      if (known && probeDoublings < Integer.MAX_VALUE) {
        probeDoublings++;
      }
      probeAtNanos = now + PROBE_PAUSE.delay(probeDoublings).toNanos();
    }
    ceiling = Math.min(ceiling, Math.max(minLimit, concurrency - 1));
    refusedMax = Math.max(refusedMax, concurrency);
    limit = Math.min(limit, ceiling);
    regaining = true;
    growthCredit = 0;
  }

  /** Shrinks the limit by {@code factor}, unless it did within the last round trip. */
  private boolean decrease(long now, double factor, long latency) {
    slowStart = false;
    // Before any success the call that just ended is the only measure of a round trip; without
    // it, a burst of throttled first calls would halve the limit once per call, down to 1.
    double roundTrip = Double.isNaN(baselineNanos) ? latency : baselineNanos;
    if (decreased && now - lastDecreaseNanos < roundTrip) {
      return false;
    }
    decreased = true;
    lastDecreaseNanos = now;
    limit = Math.max(minLimit, (int) (limit * factor));
    return true;
  }

  /** The concurrency the limit holds at until it probes above, or MAX_VALUE when none is known. */
  int ceiling() {
    lock.lock();
    try {
      return ceiling;
    } finally {
      lock.unlock();
    }
  }

  /** When the limit last looked at the clock to grow on time (nanoTime), for tests. */
  long pacedAt() {
    lock.lock();
    try {
      return lookedAtNanos;
    } finally {
      lock.unlock();
    }
  }

  int limit() {
    lock.lock();
    try {
      return limit;
    } finally {
      lock.unlock();
    }
  }

  long waiting() {
    lock.lock();
    try {
      return waiting;
    } finally {
      lock.unlock();
    }
  }

  int inFlight() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }
}
