package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The durable queue's contract on locks: acks, nacks and releases fenced by the lock that took the
 * message; redelivery when a lock lapses; dead letters after {@link QueueOptions#maxDeliveries()}.
 */
public abstract class QueueLockContract extends DurableQueueContract {

  /** A message whose lock lapses is delivered again, counted, to whoever takes it next. */
  @Test
  public void aMessageWhoseLockLapsesIsDeliveredAgain() {
    DurableQueue queue = queue("crashy", "node-a");
    long id = queue.enqueue("work");
    Delivery first = takeOne(queue);

    clock.advance(LOCK.minusSeconds(1));
    assertThat(queue.take(10)).as("the lock still holds").isEmpty();

    clock.advance(Duration.ofSeconds(2));
    Delivery second = takeOne(queue("crashy", "node-b"));

    assertThat(second.id()).isEqualTo(id);
    assertThat(second.deliveryCount()).isEqualTo(2);
    assertThat(second.redelivered()).isTrue();
    assertThat(second.lockOwner()).isEqualTo("node-b");
    assertThat(second.lockExpiry()).isEqualTo(clock.instant().plus(LOCK));
    assertThat(first.redelivered()).isFalse();
  }

  /**
   * A lock lapses the very instant it expires: an ack from then on fails, even when nobody took the
   * message since, and the message is delivered again, even to the owner that held it, whose
   * earlier delivery no longer acks.
   */
  @Test
  public void aLockLapsesTheInstantItExpires() {
    DurableQueue queue = queue("boundary");
    queue.enqueue("job");
    Delivery first = takeOne(queue);

    clock.advance(LOCK.minusMillis(1));
    assertThat(queue.take(10)).as("the lock holds until its expiry").isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(queue.ack(first)).as("an ack at the expiry").isFalse();
    assertThat(queue.size()).isEqualTo(1);

    Delivery second = takeOne(queue);
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(second.deliveryCount()).isEqualTo(2);
    assertThat(queue.ack(first)).as("an ack of the earlier delivery").isFalse();
    assertThat(queue.ack(second)).isTrue();
    assertThat(queue.size()).isZero();
  }

  /** An ack after the lock lapsed and another owner took the message fails; the message stays. */
  @Test
  public void anAckAfterTheLockLapsedAndAnotherOwnerTookItFailsAndKeepsTheMessage() {
    DurableQueue slow = queue("contended", "slow");
    DurableQueue fast = queue("contended", "fast");
    slow.enqueue("job");
    Delivery stale = takeOne(slow);
    clock.advance(LOCK.plusSeconds(1));
    Delivery current = takeOne(fast);

    assertThat(slow.ack(stale)).isFalse();
    assertThat(slow.nack(stale, Duration.ZERO)).isFalse();
    assertThat(slow.release(stale)).isFalse();

    assertThat(fast.size()).isEqualTo(1);
    assertThat(fast.take(10)).as("still locked by its new owner").isEmpty();
    assertThat(fast.ack(current)).isTrue();
    assertThat(fast.size()).isZero();
  }

  /** A delivery is acked only by its own owner, and only while it is the message's current lock. */
  @Test
  public void onlyTheCurrentLockOfItsOwnerAcks() {
    DurableQueue mine = queue("fenced", "mine");
    DurableQueue theirs = queue("fenced", "theirs");
    mine.enqueue("job");
    Delivery first = takeOne(mine);

    assertThat(theirs.ack(first)).as("another owner's ack").isFalse();
    assertThat(mine.nack(first, Duration.ZERO)).isTrue();
    Delivery second = takeOne(mine);
    assertThat(mine.ack(first)).as("an ack of an earlier delivery").isFalse();

    assertThat(mine.release(second)).isTrue();
    Delivery third = takeOne(theirs);
    assertThat(third.deliveryCount()).isEqualTo(second.deliveryCount());
    assertThat(mine.ack(second)).as("an ack of a delivery released and taken by another").isFalse();
    assertThat(theirs.ack(third)).isTrue();
    assertThat(mine.size()).isZero();
  }

  /** AckAll acknowledges the deliveries still held and says how many. */
  @Test
  public void ackAllAcknowledgesTheDeliveriesStillHeld() {
    DurableQueue queue = queue("many");
    queue.enqueueAll(List.of("a", "b", "c"));
    List<Delivery> taken = queue.take(10);
    assertThat(queue.ack(taken.get(1))).isTrue();

    assertThat(queue.ackAll(taken)).isEqualTo(2);

    assertThat(queue.size()).isZero();
    assertThat(queue.ackAll(List.of())).isZero();
  }

  /**
   * A nacked message is invisible until its delay has passed on the clock, then delivered again
   * from that very instant.
   */
  @Test
  public void aNackedMessageIsInvisibleUntilItsDelayPasses() {
    DurableQueue queue = queue("retry");
    queue.enqueue("flaky");
    Delivery first = takeOne(queue);

    assertThat(queue.nack(first, Duration.ofSeconds(10))).isTrue();

    assertThat(queue.take(10)).isEmpty();
    clock.advance(Duration.ofSeconds(10).minusMillis(1));
    assertThat(queue.take(10)).isEmpty();
    assertThat(queue.size()).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    Delivery second = takeOne(queue);
    assertThat(second.deliveryCount()).isEqualTo(2);
    assertThat(second.redelivered()).isTrue();
  }

  /** A nack without delay makes the message ready at once, ahead of later messages. */
  @Test
  public void aNackWithoutDelayMakesTheMessageReadyAtOnce() {
    DurableQueue queue = queue("again");
    long id = queue.enqueue("first");
    Delivery first = takeOne(queue);
    queue.enqueue("second");

    assertThat(queue.nack(first, Duration.ZERO)).isTrue();

    assertThat(queue.take(1)).extracting(Delivery::id).containsExactly(id);
  }

  /** A released message is ready at once and its delivery is not counted, however often. */
  @Test
  public void aReleasedMessageIsDeliveredAgainWithoutCountingTheDelivery() {
    DurableQueue queue =
        storage.queue("busy", QueueOptions.DEFAULTS.withLockTimeout(LOCK).withMaxDeliveries(2));
    long id = queue.enqueue("job");

    for (int i = 0; i < 5; i++) {
      Delivery delivery = takeOne(queue);
      assertThat(delivery.deliveryCount()).isEqualTo(1);
      assertThat(delivery.redelivered()).isFalse();
      assertThat(queue.release(delivery)).isTrue();
    }

    assertThat(queue.deadLetterCount()).isZero();
    assertThat(takeOne(queue).id()).isEqualTo(id);
  }

  /**
   * A message nacked on its last allowed delivery goes to the dead letters, never delivered again.
   */
  @Test
  public void aMessageNackedMaxDeliveriesTimesGoesToTheDeadLetters() {
    DurableQueue queue = queue("poison", QueueOptions.DEFAULTS.withMaxDeliveries(3));
    long id = queue.enqueue("poison pill");
    Delivery pill = null;
    for (int count = 1; count <= 3; count++) {
      pill = takeOne(queue);
      assertThat(pill.deliveryCount()).isEqualTo(count);
      assertThat(queue.nack(pill, Duration.ZERO)).isTrue();
    }
    long healthy = queue.enqueue("healthy");

    assertThatIsTheOnlyDeadLetter(queue, id, "poison pill", 3);
    assertThat(queue.ack(pill)).isFalse();
    clock.advance(Duration.ofDays(1));
    assertThat(queue.take(10)).extracting(Delivery::id).containsExactly(healthy);
  }

  /**
   * A message dead-lettered by its consumer goes to the dead letters at once, whatever its count,
   * with the reason; only the lock that took it may do that.
   */
  @Test
  public void aMessageDeadLetteredByItsConsumerIsDeadAtOnceWithTheReason() {
    DurableQueue queue = queue("hopeless", QueueOptions.DEFAULTS.withMaxDeliveries(5));
    long id = queue.enqueue("cannot be mended");
    Delivery first = takeOne(queue);
    clock.advance(LOCK.plusSeconds(1));
    Delivery second = takeOne(queue);
    assertThat(queue.deadLetter(first, "stale")).as("a lapsed lock").isFalse();

    assertThat(queue.deadLetter(second, "IllegalArgumentException: bad input")).isTrue();

    assertThat(queue.deadLetters(10))
        .singleElement()
        .satisfies(
            dead -> {
              assertThat(dead.id()).isEqualTo(id);
              assertThat(dead.payload()).isEqualTo("cannot be mended");
              assertThat(dead.deadReason()).isEqualTo("IllegalArgumentException: bad input");
            });
    assertThat(queue.size()).isZero();
    assertThat(queue.ack(second)).isFalse();
    clock.advance(Duration.ofDays(1));
    assertThat(queue.take(10)).isEmpty();
  }

  /** A message whose lock lapses on its last allowed delivery goes to the dead letters. */
  @Test
  public void aMessageWhoseLockLapsesMaxDeliveriesTimesGoesToTheDeadLetters() {
    DurableQueue queue = queue("crashes", QueueOptions.DEFAULTS.withMaxDeliveries(2));
    long id = queue.enqueue("kills its consumer");
    for (int count = 1; count <= 2; count++) {
      assertThat(takeOne(queue).deliveryCount()).isEqualTo(count);
      clock.advance(LOCK.plusSeconds(1));
    }

    assertThatIsTheOnlyDeadLetter(queue, id, "kills its consumer", 2);
    clock.advance(Duration.ofDays(1));
    assertThat(queue.take(10)).isEmpty();
  }

  /** Dead letters are listed oldest first, up to the number asked, and stay where they are. */
  @Test
  public void deadLettersAreListedOldestFirstAndStay() {
    DurableQueue queue = queue("graveyard", QueueOptions.DEFAULTS.withMaxDeliveries(1));
    List<Long> ids = queue.enqueueAll(List.of("a", "b", "c"));
    queue.take(10).reversed().forEach(delivery -> queue.nack(delivery, Duration.ZERO));

    assertThat(queue.deadLetters(2))
        .extracting(Delivery::id)
        .containsExactlyElementsOf(ids.subList(0, 2));
    assertThat(queue.deadLetters(10)).extracting(Delivery::payload).containsExactly("a", "b", "c");
    assertThat(queue.deadLetterCount()).isEqualTo(3);
    assertThat(queue.size()).isZero();
  }

  /** Size counts ready and locked messages, not dead letters. */
  @Test
  public void sizeCountsReadyAndLockedMessagesButNotDeadLetters() {
    DurableQueue queue = queue("counted", QueueOptions.DEFAULTS.withMaxDeliveries(1));
    queue.enqueueAll(List.of("dead", "locked", "ready"));
    List<Delivery> taken = queue.take(2);
    queue.nack(taken.getFirst(), Duration.ZERO);

    assertThat(queue.size()).isEqualTo(2);
    assertThat(queue.deadLetterCount()).isEqualTo(1);
  }
}
