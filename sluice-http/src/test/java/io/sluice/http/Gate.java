package io.sluice.http;

import io.sluice.core.Message;
import io.sluice.core.spi.Processor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A blocking processor that holds every message until the test opens it. */
final class Gate implements Processor {

  private final CountDownLatch open = new CountDownLatch(1);
  private final AtomicInteger holding = new AtomicInteger();
  private final AtomicInteger maxHolding = new AtomicInteger();
  private final AtomicInteger entered = new AtomicInteger();
  private final String answer;

  /** A gate whose messages leave with {@code answer} as payload. */
  Gate(String answer) {
    this.answer = answer;
  }

  @Override
  public Message process(Message message) throws InterruptedException {
    entered.incrementAndGet();
    maxHolding.accumulateAndGet(holding.incrementAndGet(), Math::max);
    try {
      if (!open.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never opened the gate");
      }
      return message.withPayload(answer);
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

  int maxHolding() {
    return maxHolding.get();
  }

  int entered() {
    return entered.get();
  }
}
