package io.sluice.core.internal;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A nanoTime that moves only when the test says, and lets threads wait for it to move. */
final class FakeNanoTime {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition moved = lock.newCondition();
  private long now = 1_000_000_000L;

  long now() {
    lock.lock();
    try {
      return now;
    } finally {
      lock.unlock();
    }
  }

  void advance(Duration by) {
    lock.lock();
    try {
      now += by.toNanos();
      moved.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Blocks until the time is past {@code instant}. */
  void awaitPast(long instant) throws InterruptedException {
    lock.lock();
    try {
      while (now <= instant) {
        moved.await();
      }
    } finally {
      lock.unlock();
    }
  }
}
