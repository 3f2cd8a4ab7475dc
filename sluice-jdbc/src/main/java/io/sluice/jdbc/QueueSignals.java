package io.sluice.jdbc;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes this process's waiting takes when their queue may have something for them: after a local
 * commit that enqueued, nacked or released, or when another node notified. One condition per queue;
 * a waiter remembers the generation it saw before looking, so a wake between its look and its wait
 * is not lost.
 */
final class QueueSignals {

  private final ConcurrentHashMap<String, Signal> signals = new ConcurrentHashMap<>();

  /** The generation of {@code queue}'s signal, to pass to {@link #await} after looking. */
  long generation(String queue) {
    return signal(queue).generation;
  }

  /**
   * Waits until {@code queue} is signalled after {@code seen}, at most {@code timeout}; false when
   * the time ran out.
   */
  boolean await(String queue, long seen, Duration timeout) throws InterruptedException {
    return signal(queue).await(seen, timeout.toNanos());
  }

  /** Wakes the waiters of these queues. */
  void wake(Collection<String> queues) {
    queues.forEach(this::wake);
  }

  /** Wakes the waiters of {@code queue}. */
  void wake(String queue) {
    Signal signal = signals.get(queue);
    if (signal != null) {
      signal.wake();
    }
  }

  /** Wakes every waiter: something may have been missed (a notification connection came back). */
  void wakeAll() {
    signals.values().forEach(Signal::wake);
  }

  private Signal signal(String queue) {
    return signals.computeIfAbsent(queue, q -> new Signal());
  }

  private static final class Signal {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long generation;

    void wake() {
      lock.lock();
      try {
        generation++;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    boolean await(long seen, long nanos) throws InterruptedException {
      lock.lock();
      try {
        long left = nanos;
        while (generation == seen) {
          if (left <= 0) {
            return false;
          }
          left = changed.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }
  }
}
