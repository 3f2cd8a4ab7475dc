package io.sluice.core;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A processor that holds every message until the test opens it, and tells how many it holds, the
 * most it held at once and the threads it ran on.
 */
final class Gate implements Processor {

  private final ProcessingType type;
  private final CountDownLatch open = new CountDownLatch(1);
  private final AtomicInteger holding = new AtomicInteger();
  private final AtomicInteger maxHolding = new AtomicInteger();
  private final AtomicInteger entered = new AtomicInteger();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  Gate(ProcessingType type) {
    this.type = type;
  }

  static Gate blocking() {
    return new Gate(ProcessingType.BLOCKING_IO);
  }

  @Override
  public Message process(Message message) throws InterruptedException {
    threads.add(Thread.currentThread());
    entered.incrementAndGet();
    maxHolding.accumulateAndGet(holding.incrementAndGet(), Math::max);
    try {
      if (!open.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never opened the gate");
      }
      return message;
    } finally {
      holding.decrementAndGet();
    }
  }

  void open() {
    open.countDown();
  }

  int holding() {
    return holding.get();
  }

  int entered() {
    return entered.get();
  }

  int maxHolding() {
    return maxHolding.get();
  }

  List<Thread> threads() {
    return threads;
  }

  @Override
  public ProcessingType processingType() {
    return type;
  }

  @Override
  public String name() {
    return "gate";
  }
}
