package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.FlowBusyException;
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
 * A listener holding one message at a time keeps the queue's order even when the flow refuses a
 * message after it took it (busy further in): the refused message goes back before the next take,
 * so it comes again before the one behind it.
 */
class OneAtATimeKeepsOrderWhenAMessageIsRefusedLateTest {

  private final MemoryStorage storage = new MemoryStorage(Clock.systemUTC());
  private final CompletableFuture<Object> firstTry = new CompletableFuture<>();

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void theRefusedMessageComesAgainBeforeTheNextOne() {
    DurableQueue queue = storage.queue("orders", QueueOptions.DEFAULTS);
    queue.enqueueAll(List.of("a", "b"));
    List<Object> delivered = new CopyOnWriteArrayList<>();
    DurableQueueListener listener =
        new DurableQueueListener(
            queue,
            "one-at-a-time",
            1,
            1,
            Duration.ZERO,
            d -> {
              delivered.add(d.payload());
              return delivered.size() == 1 ? firstTry : CompletableFuture.completedFuture(null);
            },
            new SimpleMeterRegistry());
    listener.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
      firstTry.completeExceptionally(new FlowBusyException("orders-flow", "stage", "full"));
      await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 3);
    } finally {
      listener.stop();
    }
    assertThat(delivered).containsExactly("a", "a", "b");
  }
}
