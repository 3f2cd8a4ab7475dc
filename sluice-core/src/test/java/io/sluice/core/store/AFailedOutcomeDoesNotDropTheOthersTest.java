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
 * A listener writes the outcomes of a batch together; one the store refuses (a nack that failed)
 * does not keep the others from being written: the failed message waits for its lock to lapse, the
 * others are delivered again after the redelivery delay, not the lock timeout.
 */
class AFailedOutcomeDoesNotDropTheOthersTest {

  private final MemoryStorage storage = new MemoryStorage(Clock.systemUTC());

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void theOtherNacksOfTheFlushAreWrittenWhenOneFails() {
    // Locks far longer than the test waits: a message whose nack was dropped would not come back.
    QueueOptions options = QueueOptions.DEFAULTS.withLockTimeout(Duration.ofMinutes(10));
    FaultyQueue queue = new FaultyQueue(storage.queue("orders", options)).failNackOf("bad-1");
    queue.enqueueAll(List.of("bad-1", "bad-2", "bad-3"));
    List<Object> delivered = new CopyOnWriteArrayList<>();
    DurableQueueListener listener =
        new DurableQueueListener(
            queue,
            "failing-nacks",
            1,
            8,
            Duration.ZERO,
            d -> {
              delivered.add(d.payload());
              return CompletableFuture.failedFuture(new IllegalStateException("the flow failed"));
            },
            new SimpleMeterRegistry());
    listener.start();
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(delivered)
                      .filteredOn(p -> !p.equals("bad-1"))
                      .hasSizeGreaterThanOrEqualTo(4)
                      .contains("bad-2", "bad-3"));
    } finally {
      listener.stop();
    }
    assertThat(delivered).filteredOn("bad-1"::equals).hasSize(1);
  }
}
