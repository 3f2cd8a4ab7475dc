package io.sluice.core.vm;

import java.time.Duration;
import java.util.List;

/** Stopping the consumer threads of a listener: the one way both kinds of VM listener do it. */
public final class ConsumerThreads {

  private ConsumerThreads() {}

  /**
   * Waits up to {@code grace} for each thread to notice it should stop, then interrupts one that is
   * still blocked (handing a message over under WAIT backpressure) and waits for it; clears the
   * list. A caller interrupted meanwhile keeps its interrupt.
   */
  public static void stop(List<Thread> threads, Duration grace) {
    try {
      for (Thread thread : threads) {
        if (!thread.join(grace)) {
          thread.interrupt();
          thread.join();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    threads.clear();
  }
}
