package io.sluice.core.store;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real queue whose store fails where a test says, as a store that lost its disk for a moment: the
 * first takes, or the nack of one message.
 */
final class FaultyQueue implements DurableQueue {
  private final DurableQueue queue;
  private final AtomicInteger failures = new AtomicInteger();
  private volatile Object failNackOf;

  FaultyQueue(DurableQueue queue) {
    this.queue = queue;
  }

  /** The next {@code count} takes fail. */
  FaultyQueue failTakes(int count) {
    failures.set(count);
    return this;
  }

  /** Every nack of the message whose payload is {@code payload} fails. */
  FaultyQueue failNackOf(Object payload) {
    failNackOf = payload;
    return this;
  }

  @Override
  public List<Delivery> take(int max, Duration wait) throws InterruptedException {
    if (failures.getAndDecrement() > 0) {
      throw new StoreException("disk I/O error (a test's fault)");
    }
    return queue.take(max, wait);
  }

  @Override
  public String name() {
    return queue.name();
  }

  @Override
  public String owner() {
    return queue.owner();
  }

  @Override
  public long enqueue(Object payload) {
    return queue.enqueue(payload);
  }

  @Override
  public List<Long> enqueueAll(List<?> payloads) {
    return queue.enqueueAll(payloads);
  }

  @Override
  public List<Delivery> take(int max) {
    return queue.take(max);
  }

  @Override
  public boolean ack(Delivery delivery) {
    return queue.ack(delivery);
  }

  @Override
  public int ackAll(Collection<Delivery> deliveries) {
    return queue.ackAll(deliveries);
  }

  @Override
  public boolean deadLetter(Delivery delivery, String reason) {
    return queue.deadLetter(delivery, reason);
  }

  @Override
  public boolean nack(Delivery delivery, Duration delay) {
    if (delivery.payload().equals(failNackOf)) {
      throw new StoreException("disk I/O error nacking (a test's fault)");
    }
    return queue.nack(delivery, delay);
  }

  @Override
  public boolean release(Delivery delivery) {
    return queue.release(delivery);
  }

  @Override
  public long size() {
    return queue.size();
  }

  @Override
  public long deadLetterCount() {
    return queue.deadLetterCount();
  }

  @Override
  public List<Delivery> deadLetters(int max) {
    return queue.deadLetters(max);
  }

  @Override
  public boolean requeueDeadLetter(long id) {
    return queue.requeueDeadLetter(id);
  }

  @Override
  public boolean dropDeadLetter(long id) {
    return queue.dropDeadLetter(id);
  }
}
