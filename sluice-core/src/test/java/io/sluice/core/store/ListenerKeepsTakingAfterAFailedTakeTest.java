package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A take that fails (the store erred once, in a way it does not retry by itself) does not stop the
 * listener: it is counted, and the next take, after a short pause, delivers what is waiting.
 */
class ListenerKeepsTakingAfterAFailedTakeTest {

  private final MemoryStorage storage = new MemoryStorage(Clock.systemUTC());

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aFailedTakeIsCountedAndTheMessagesAreDeliveredByTheNextOne() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    FailingTakes queue = new FailingTakes(storage.queue("orders", QueueOptions.DEFAULTS), 2);
    queue.enqueueAll(List.of("a", "b"));
    List<Object> delivered = new CopyOnWriteArrayList<>();
    DurableQueueListener listener =
        new DurableQueueListener(
            queue,
            "failing-takes",
            1,
            8,
            Duration.ZERO,
            d -> {
              delivered.add(d.payload());
              return CompletableFuture.completedFuture(null);
            },
            registry);
    listener.start();
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(delivered).containsExactly("a", "b"));
      queue.enqueue("c");
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(delivered).containsExactly("a", "b", "c"));
    } finally {
      listener.stop();
    }
    assertThat(registry.get("sluice.queue.take.failures").tag("queue", "orders").counter().count())
        .isEqualTo(2.0);
    assertThat(queue.size()).isZero();
  }

  /** A real memory queue whose first takes fail, as a store that lost its disk for a moment. */
  private static final class FailingTakes implements DurableQueue {
    private final DurableQueue queue;
    private final AtomicInteger failures;

    FailingTakes(DurableQueue queue, int failures) {
      this.queue = queue;
      this.failures = new AtomicInteger(failures);
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
    public boolean nack(Delivery delivery, Duration delay) {
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
  }
}
