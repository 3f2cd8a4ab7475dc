package io.sluice.core.testing;

import io.sluice.core.spi.TimerService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A timer driven by the test: tasks run on the test's thread, in due order, when the test calls
 * {@link #runDue()} or {@link #advance(Duration)}. Nothing sleeps and nothing runs by itself.
 */
public final class ManualTimerService implements TimerService {

  private record Scheduled(Instant due, long sequence, Runnable task) {}

  private final ManualClock clock;
  private final PriorityQueue<Scheduled> queue =
      new PriorityQueue<>(Comparator.comparing(Scheduled::due).thenComparing(Scheduled::sequence));
  private long sequence;

  /** A timer on this clock. */
  public ManualTimerService(ManualClock clock) {
    this.clock = clock;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Scheduled scheduled = new Scheduled(clock.instant().plus(delay), sequence++, task);
    queue.add(scheduled);
    return () -> {
      synchronized (this) {
        queue.remove(scheduled);
      }
    };
  }

  /** Runs every task due at the clock's current time (including ones they schedule for now). */
  public int runDue() {
    int ran = 0;
    while (true) {
      Scheduled next;
      synchronized (this) {
        next = queue.peek();
        if (next == null || next.due().isAfter(clock.instant())) {
          return ran;
        }
        queue.poll();
      }
      next.task().run();
      ran++;
    }
  }

  /**
   * Moves the clock forward by {@code by}, stopping at each task's due time to run it, so tasks see
   * the clock at their own due time. Returns how many ran.
   */
  public int advance(Duration by) {
    Instant end = clock.instant().plus(by);
    int ran = 0;
    while (true) {
      Instant due;
      synchronized (this) {
        Scheduled next = queue.peek();
        due = next == null || next.due().isAfter(end) ? null : next.due();
      }
      if (due == null) {
        break;
      }
      if (due.isAfter(clock.instant())) {
        clock.set(due);
      }
      ran += runDue();
    }
    clock.set(end);
    return ran;
  }

  /** The due times of the tasks waiting, earliest first. */
  public synchronized List<Instant> pending() {
    List<Scheduled> sorted = new ArrayList<>(queue);
    sorted.sort(queue.comparator());
    return sorted.stream().map(Scheduled::due).toList();
  }
}
