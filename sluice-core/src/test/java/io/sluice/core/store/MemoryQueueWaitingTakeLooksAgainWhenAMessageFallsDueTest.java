package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.memory.MemoryStorage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nothing signals a waiting take when a delay ends or a lock lapses: it looks again at that time on
 * its own. Runs on the real clock, since the take's wait is real time.
 */
class MemoryQueueWaitingTakeLooksAgainWhenAMessageFallsDueTest {

  private final MemoryStorage storage = new MemoryStorage(Clock.systemUTC());

  @Test
  void aNackedMessageIsTakenWhenItsDelayEnds() throws Exception {
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);
    queue.enqueue("retry me");
    queue.nack(queue.take(1).getFirst(), Duration.ofMillis(200));
    long start = System.nanoTime();

    List<Delivery> taken = queue.take(1, Duration.ofSeconds(20));

    assertThat(taken).extracting(Delivery::deliveryCount).containsExactly(2);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(150))
        .isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aMessageIsTakenWhenItsLockLapses() throws Exception {
    DurableQueue queue =
        storage.queue("q", QueueOptions.DEFAULTS.withLockTimeout(Duration.ofMillis(200)));
    queue.enqueue("abandoned");
    queue.take(1);

    List<Delivery> taken = queue.take(1, Duration.ofSeconds(20));

    assertThat(taken).extracting(Delivery::redelivered).containsExactly(true);
  }
}
