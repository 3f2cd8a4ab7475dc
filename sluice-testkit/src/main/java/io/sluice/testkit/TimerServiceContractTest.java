package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.spi.TimerService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link TimerService} keeps, to extend once per implementation. Delays are
 * short (tens of milliseconds) so that a real timer runs the suite quickly; a manual timer is
 * driven through {@link #letTimePass}. Outcomes are awaited, never slept for: a task that must not
 * run is checked against a later task that must.
 */
public abstract class TimerServiceContractTest {

  /** The delay most cases schedule with. */
  protected static final Duration DELAY = Duration.ofMillis(20);

  /** The timer under test, made before each test. */
  protected TimerService timer;

  /** A new timer; {@link #close} releases it after the test. */
  protected abstract TimerService newTimer();

  /**
   * Lets {@code duration} pass on the timer's clock, running what falls due: a manual timer
   * advances; a real one waits until its clock has moved that far.
   */
  protected abstract void letTimePass(Duration duration);

  /** Releases the timer's threads, if it has any; by default closes an {@link AutoCloseable}. */
  protected void close(TimerService service) throws Exception {
    if (service instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /** The longest the test waits for a task that is due. */
  protected Duration patience() {
    return Duration.ofSeconds(5);
  }

  /** Makes the timer. */
  @BeforeEach
  final void makeTimer() {
    timer = newTimer();
  }

  /** Closes the timer. */
  @AfterEach
  final void closeTimer() throws Exception {
    close(timer);
  }

  /** A task runs once, and not before its delay has passed on {@link TimerService#clock()}. */
  @Test
  public void aScheduledTaskRunsOnceAfterItsDelayByTheTimersOwnClock() {
    Instant scheduledAt = timer.clock().instant();
    AtomicInteger runs = new AtomicInteger();
    AtomicReference<Instant> ranAt = new AtomicReference<>();
    timer.schedule(
        DELAY,
        () -> {
          ranAt.compareAndSet(null, timer.clock().instant());
          runs.incrementAndGet();
        });
    CountDownLatch later = latchRunAfter(DELAY.multipliedBy(3));

    letTimePass(DELAY.multipliedBy(3));
    awaitLatch(later);
    await("the task").atMost(patience()).until(() -> runs.get() > 0);

    assertThat(runs).hasValue(1);
    assertThat(ranAt.get()).isAfterOrEqualTo(scheduledAt.plus(DELAY));
  }

  /** A task cancelled before it is due never runs, though later tasks do. */
  @Test
  public void aTaskCancelledBeforeItIsDueDoesNotRun() {
    AtomicInteger runs = new AtomicInteger();
    TimerService.Cancellable handle = timer.schedule(DELAY.multipliedBy(2), runs::incrementAndGet);
    CountDownLatch later = latchRunAfter(DELAY.multipliedBy(3));

    handle.cancel();
    letTimePass(DELAY.multipliedBy(3));
    awaitLatch(later);

    assertThat(runs).hasValue(0);
  }

  /** Cancelling a task that already ran is harmless. */
  @Test
  public void cancellingATaskThatAlreadyRanDoesNothing() {
    CountDownLatch ran = new CountDownLatch(1);
    TimerService.Cancellable handle = timer.schedule(DELAY, ran::countDown);
    letTimePass(DELAY);
    awaitLatch(ran);

    handle.cancel();

    assertThat(ran.getCount()).isZero();
  }

  /** Tasks due at the same time all run, none lost to another. */
  @Test
  public void tasksScheduledForTheSameTimeAllRun() {
    int tasks = 10;
    Queue<Integer> ran = new ConcurrentLinkedQueue<>();
    CountDownLatch all = new CountDownLatch(tasks);
    for (int i = 0; i < tasks; i++) {
      int task = i;
      timer.schedule(
          DELAY,
          () -> {
            ran.add(task);
            all.countDown();
          });
    }

    letTimePass(DELAY);
    awaitLatch(all);

    assertThat(ran).containsExactlyInAnyOrderElementsOf(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
  }

  /** A running task may schedule another, which runs its own delay later. */
  @Test
  public void aTaskCanScheduleAnother() {
    CountDownLatch second = new CountDownLatch(1);
    AtomicReference<Instant> firstAt = new AtomicReference<>();
    AtomicReference<Instant> secondAt = new AtomicReference<>();
    timer.schedule(
        DELAY,
        () -> {
          firstAt.set(timer.clock().instant());
          timer.schedule(
              DELAY,
              () -> {
                secondAt.set(timer.clock().instant());
                second.countDown();
              });
        });

    letTimePass(DELAY.multipliedBy(2));
    awaitLatch(second);

    assertThat(secondAt.get()).isAfterOrEqualTo(firstAt.get().plus(DELAY));
  }

  /** A task with no delay runs (at once, or when the test lets time pass). */
  @Test
  public void aTaskWithZeroDelayRuns() {
    CountDownLatch ran = new CountDownLatch(1);

    timer.schedule(Duration.ZERO, ran::countDown);
    letTimePass(Duration.ZERO);

    awaitLatch(ran);
  }

  /** A timer has a clock. */
  @Test
  public void clockIsNotNull() {
    assertThat(timer.clock()).isNotNull();
  }

  /** A task due after {@code delay} that counts the returned latch down: the "later" marker. */
  private CountDownLatch latchRunAfter(Duration delay) {
    CountDownLatch latch = new CountDownLatch(1);
    timer.schedule(delay, latch::countDown);
    return latch;
  }

  /** Waits up to {@link #patience()} for the latch; fails the test when it does not open. */
  protected final void awaitLatch(CountDownLatch latch) {
    await("a due task")
        .atMost(patience())
        .pollInterval(Duration.ofMillis(5))
        .until(() -> latch.getCount() == 0);
  }
}
