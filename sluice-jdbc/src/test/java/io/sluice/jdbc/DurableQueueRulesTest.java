package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link DurableQueue}'s Javadoc, for each database (subclasses open the storage). */
abstract class DurableQueueRulesTest {

  protected final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));
  protected JdbcStorage storage;
  private DurableQueue queue;

  /** A new, empty storage on {@code clock}. */
  protected abstract JdbcStorage newStorage(ManualClock clock) throws Exception;

  /** The same storage opened again after close. */
  protected abstract JdbcStorage reopen(ManualClock clock) throws Exception;

  @BeforeEach
  void open() throws Exception {
    storage = newStorage(clock);
    queue = queue("orders");
  }

  @AfterEach
  void close() {
    storage.close();
  }

  private DurableQueue queue(String name) {
    return storage.queue(
        name, QueueOptions.DEFAULTS.withLockTimeout(Duration.ofSeconds(30)).withMaxDeliveries(3));
  }

  private static List<Object> payloads(List<Delivery> deliveries) {
    return deliveries.stream().map(Delivery::payload).toList();
  }

  @Test
  void messagesAreTakenOldestFirstWithGrowingIds() {
    long first = queue.enqueue("a");
    List<Long> next = queue.enqueueAll(List.of("b", "c"));

    List<Delivery> taken = queue.take(10);

    assertThat(next).containsExactly(first + 1, first + 2);
    assertThat(payloads(taken)).containsExactly("a", "b", "c");
    assertThat(taken).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(1));
    assertThat(taken.getFirst().lockOwner()).isEqualTo(queue.owner());
    assertThat(taken.getFirst().lockExpiry()).isEqualTo(clock.instant().plusSeconds(30));
  }

  @Test
  void enqueueAllOfManyMessagesKeepsTheirOrder() {
    List<Integer> many = IntStream.range(0, 1234).boxed().toList();

    List<Long> ids = queue.enqueueAll(many);

    assertThat(ids).isSorted().doesNotHaveDuplicates().hasSize(1234);
    assertThat(payloads(queue.take(2000))).containsExactlyElementsOf(new ArrayList<>(many));
  }

  @Test
  void aTakenMessageIsNotTakenAgainWhileLocked() {
    queue.enqueueAll(List.of("a", "b"));

    assertThat(payloads(queue.take(1))).containsExactly("a");
    assertThat(payloads(queue.take(5))).containsExactly("b");
    assertThat(queue.take(5)).isEmpty();
    assertThat(queue.size()).isEqualTo(2);
  }

  @Test
  void anAcknowledgedMessageIsGone() {
    queue.enqueue("a");
    Delivery d = queue.take(1).getFirst();

    assertThat(queue.ack(d)).isTrue();
    assertThat(queue.ack(d)).isFalse();
    assertThat(queue.size()).isZero();
    clock.advance(Duration.ofMinutes(5));
    assertThat(queue.take(1)).isEmpty();
  }

  @Test
  void aMessageWhoseLockLapsedIsDeliveredAgain() {
    queue.enqueue("a");
    Delivery first = queue.take(1).getFirst();
    clock.advance(Duration.ofSeconds(30));

    Delivery second = queue.take(1).getFirst();

    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.redelivered()).isTrue();
    assertThat(second.deliveryCount()).isEqualTo(2);
  }

  @Test
  void aLateAckAfterTheMessageWasTakenAgainReturnsFalse() {
    DurableQueue other = storage.queue("orders", QueueOptions.DEFAULTS.withMaxDeliveries(3));
    queue.enqueue("a");
    Delivery stale = queue.take(1).getFirst();
    clock.advance(Duration.ofSeconds(31));
    Delivery fresh = other.take(1).getFirst();

    assertThat(queue.ack(stale)).isFalse();
    assertThat(queue.nack(stale, Duration.ZERO)).isFalse();
    assertThat(queue.release(stale)).isFalse();
    assertThat(other.ack(fresh)).isTrue();
  }

  @Test
  void anAckAfterTheLockLapsedReturnsFalseEvenWhenNobodyTookIt() {
    queue.enqueue("a");
    Delivery d = queue.take(1).getFirst();
    clock.advance(Duration.ofSeconds(30));

    assertThat(queue.ack(d)).isFalse();
    assertThat(queue.size()).isEqualTo(1);
  }

  @Test
  void theSameOwnerCannotAckAnEarlierDeliveryOfAMessageItTookAgain() {
    queue.enqueue("a");
    Delivery stale = queue.take(1).getFirst();
    clock.advance(Duration.ofSeconds(30));
    Delivery fresh = queue.take(1).getFirst();

    assertThat(queue.ack(stale)).isFalse();
    assertThat(queue.ack(fresh)).isTrue();
  }

  @Test
  void aNackedMessageIsReadyAgainAfterTheDelay() {
    queue.enqueue("a");
    Delivery d = queue.take(1).getFirst();

    assertThat(queue.nack(d, Duration.ofSeconds(10))).isTrue();
    assertThat(queue.take(1)).isEmpty();
    clock.advance(Duration.ofSeconds(10));
    Delivery again = queue.take(1).getFirst();

    assertThat(again.deliveryCount()).isEqualTo(2);
  }

  @Test
  void aReleasedMessageIsReadyAtOnceWithoutCountingTheDelivery() {
    queue.enqueueAll(List.of("a", "b"));
    List<Delivery> both = queue.take(2);

    assertThat(queue.release(both.getFirst())).isTrue();
    Delivery again = queue.take(5).getFirst();

    assertThat(again.payload()).isEqualTo("a");
    assertThat(again.deliveryCount()).isEqualTo(1);
    assertThat(again.redelivered()).isFalse();
  }

  @Test
  void aMessageTakenMaxDeliveriesTimesWhoseLockLapsedIsADeadLetter() {
    queue.enqueueAll(List.of("poison", "fine"));
    for (int i = 0; i < 3; i++) {
      assertThat(payloads(queue.take(1))).containsExactly("poison");
      clock.advance(Duration.ofSeconds(30));
    }

    assertThat(queue.deadLetterCount()).isEqualTo(1);
    assertThat(queue.size()).isEqualTo(1);
    assertThat(payloads(queue.take(5))).containsExactly("fine");
    List<Delivery> dead = queue.deadLetters(10);
    assertThat(payloads(dead)).containsExactly("poison");
    assertThat(dead.getFirst().deliveryCount()).isEqualTo(3);
    assertThat(queue.deadLetterCount()).isEqualTo(1);
  }

  @Test
  void aMessageNackedAtMaxDeliveriesIsADeadLetter() {
    queue.enqueue("poison");
    for (int i = 0; i < 3; i++) {
      Delivery d = queue.take(1).getFirst();
      assertThat(queue.nack(d, Duration.ZERO)).isTrue();
    }

    assertThat(queue.take(1)).isEmpty();
    assertThat(queue.deadLetterCount()).isEqualTo(1);
    assertThat(queue.size()).isZero();
  }

  @Test
  void ackAllCountsTheDeliveriesStillHeld() {
    queue.enqueueAll(List.of("a", "b", "c"));
    List<Delivery> taken = queue.take(3);
    queue.ack(taken.get(1));

    assertThat(queue.ackAll(taken)).isEqualTo(2);
    assertThat(queue.size()).isZero();
  }

  @Test
  void queuesOfDifferentNamesDoNotShareMessages() {
    DurableQueue other = queue("invoices");
    queue.enqueue("order");
    other.enqueue("invoice");

    assertThat(payloads(other.take(5))).containsExactly("invoice");
    assertThat(payloads(queue.take(5))).containsExactly("order");
  }

  @Test
  void aWaitingTakeWakesWhenAMessageIsEnqueued() throws Exception {
    CompletableFuture<List<Delivery>> waiting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return queue.take(5, Duration.ofSeconds(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });

    storage.queue("orders", QueueOptions.DEFAULTS).enqueue("hello");

    assertThat(payloads(waiting.get(10, TimeUnit.SECONDS))).containsExactly("hello");
  }

  @Test
  void aWaitingTakeReturnsEmptyWhenNothingCameInTime() throws Exception {
    assertThat(queue.take(5, Duration.ofMillis(50))).isEmpty();
  }
}
