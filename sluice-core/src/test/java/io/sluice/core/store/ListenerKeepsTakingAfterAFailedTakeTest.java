package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.vm.DurableQueueListener;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
    FaultyQueue queue =
        new FaultyQueue(storage.queue("orders", QueueOptions.DEFAULTS)).failTakes(2);
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
    assertThat(listener.health().up()).as("not started").isFalse();
    listener.start();
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(2))
          .untilAsserted(
              () ->
                  assertThat(listener.health().detail())
                      .as("a failed take makes the queue's readiness down")
                      .startsWith("its last take failed: "));
      queue.enqueueAll(List.of("a", "b"));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(delivered).containsExactly("a", "b"));
      assertThat(listener.health().up()).as("up again once a take answered").isTrue();
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
}
