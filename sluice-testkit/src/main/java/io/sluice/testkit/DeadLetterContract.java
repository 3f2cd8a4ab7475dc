package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import org.junit.jupiter.api.Test;

/**
 * What an operator does with dead letters: requeue one (ready at once, deliveries from zero) or
 * drop it for good; an action on a dead letter that is no longer there says so and changes nothing.
 */
public abstract class DeadLetterContract extends DurableQueueContract {

  private DurableQueue buried(String name, Object payload) {
    DurableQueue queue = queue(name, QueueOptions.DEFAULTS.withMaxDeliveries(1));
    queue.enqueue(payload);
    Delivery taken = takeOne(queue);
    assertThat(queue.deadLetter(taken, "the consumer gave up")).isTrue();
    assertThat(queue.deadLetterCount()).isEqualTo(1);
    return queue;
  }

  @Test
  void aRequeuedDeadLetterIsReadyAtOnceWithItsDeliveriesCountedFromZero() {
    DurableQueue queue = buried("orders", "order 7");
    long id = queue.deadLetters(1).getFirst().id();

    assertThat(queue.requeueDeadLetter(id)).isTrue();

    assertThat(queue.deadLetterCount()).isZero();
    assertThat(queue.size()).isEqualTo(1);
    Delivery again = takeOne(queue);
    assertThat(again.id()).isEqualTo(id);
    assertThat(again.payload()).isEqualTo("order 7");
    assertThat(again.deliveryCount()).isEqualTo(1);
    assertThat(again.deadReason()).isNull();
    assertThat(queue.ack(again)).isTrue();
    assertThat(queue.requeueDeadLetter(id)).as("acknowledged: no dead letter any more").isFalse();
  }

  @Test
  void aDroppedDeadLetterIsGoneAndASecondActionOnItChangesNothing() {
    DurableQueue queue = buried("orders", "order 8");
    long id = queue.deadLetters(1).getFirst().id();

    assertThat(queue.dropDeadLetter(id)).isTrue();

    assertThat(queue.deadLetterCount()).isZero();
    assertThat(queue.size()).isZero();
    assertThat(queue.dropDeadLetter(id)).isFalse();
    assertThat(queue.requeueDeadLetter(id)).isFalse();
  }

  @Test
  void onlyADeadLetterOfThisQueueIsTouched() {
    DurableQueue orders = buried("orders", "order 9");
    long dead = orders.deadLetters(1).getFirst().id();
    long live = orders.enqueue("live");
    DurableQueue other = queue("other");

    assertThat(other.dropDeadLetter(dead)).as("another queue's dead letter").isFalse();
    assertThat(other.requeueDeadLetter(dead)).isFalse();
    assertThat(orders.dropDeadLetter(live)).as("a live message is no dead letter").isFalse();
    assertThat(orders.requeueDeadLetter(live)).isFalse();
    assertThat(orders.deadLetterCount()).isEqualTo(1);
    assertThat(orders.size()).isEqualTo(1);
  }
}
