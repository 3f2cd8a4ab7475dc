package io.sluice.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * A flow's virtual threads, tracked so that a stop can wait for them or interrupt them: {@code
 * auto}'s blocking work, and the routes a scope forks under any strategy.
 */
final class VirtualThreads {

  private final ThreadFactory factory;
  private final Set<Thread> live = ConcurrentHashMap.newKeySet();

  /** Threads named {@code prefix} and a number. */
  VirtualThreads(String prefix) {
    this.factory = Thread.ofVirtual().name(prefix, 0).factory();
  }

  /** Runs {@code work} on a new virtual thread. */
  void start(Runnable work) {
    factory
        .newThread(
            () -> {
              Thread self = Thread.currentThread();
              live.add(self);
              try {
                work.run();
              } finally {
                live.remove(self);
              }
            })
        .start();
  }

  /** Waits for the threads alive now to end; true when they did in time. */
  boolean awaitTermination(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread thread : List.copyOf(live)) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
        return live.isEmpty();
      }
    }
    return true;
  }

  /** Interrupts every thread alive. */
  void interruptAll() {
    live.forEach(Thread::interrupt);
  }
}
