package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoredMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The durable queue's contract on taking: FIFO takes that lock, in batches; a waiting take returns
 * as soon as a message is ready; competing owners never hold one message at once; queues of
 * different names partitioned; payloads round-trip; bad arguments refused; and, for a storage that
 * keeps what it wrote, messages that survive closing and opening it again.
 */
public abstract class QueueTakeContract extends DurableQueueContract {

  /** A taken message is locked for its taker for the lock timeout; acked, it is gone. */
  @Test
  public void anEnqueuedMessageIsTakenLockedAndGoneOnceAcked() {
    DurableQueue queue = queue("orders", "node-a");
    long id = queue.enqueue("order-1");

    Delivery delivery = takeOne(queue);

    assertThat(delivery.id()).isEqualTo(id);
    assertThat(delivery.payload()).isEqualTo("order-1");
    assertThat(delivery.deliveryCount()).isEqualTo(1);
    assertThat(delivery.redelivered()).isFalse();
    assertThat(delivery.lockOwner()).isEqualTo("node-a").isEqualTo(queue.owner());
    assertThat(delivery.lockExpiry()).isEqualTo(clock.instant().plus(LOCK));
    assertThat(queue.take(10)).as("a locked message is not taken again").isEmpty();
    assertThat(queue.size()).isEqualTo(1);

    assertThat(queue.ack(delivery)).isTrue();

    assertThat(queue.size()).isZero();
    assertThat(queue.ack(delivery)).as("a second ack").isFalse();
    clock.advance(LOCK.multipliedBy(2));
    assertThat(queue.take(10)).isEmpty();
  }

  /** A thousand messages are taken in enqueue order, batch by batch, with growing ids. */
  @Test
  public void aThousandMessagesAreTakenInEnqueueOrderInBatches() {
    DurableQueue queue = queue("fifo");
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      ids.add(queue.enqueue("message-" + i));
    }
    assertThat(ids).isSorted().doesNotHaveDuplicates();

    List<Delivery> taken = new ArrayList<>();
    for (List<Delivery> batch = queue.take(64); !batch.isEmpty(); batch = queue.take(64)) {
      assertThat(batch.size()).isLessThanOrEqualTo(64);
      taken.addAll(batch);
    }

    assertThat(taken).extracting(Delivery::id).containsExactlyElementsOf(ids);
    assertThat(taken)
        .extracting(Delivery::payload)
        .containsExactlyElementsOf(IntStream.range(0, 1000).mapToObj(i -> "message-" + i).toList());
    assertThat(queue.ackAll(taken)).isEqualTo(1000);
    assertThat(queue.size()).isZero();
  }

  /**
   * One enqueueAll of more messages than fit in one statement keeps their order, and one take may
   * return them all.
   */
  @Test
  public void aLargeEnqueueAllKeepsItsOrderAndOneTakeReturnsItAll() {
    DurableQueue queue = queue("bulk");
    List<Integer> many = IntStream.range(0, 1234).boxed().toList();

    List<Long> ids = queue.enqueueAll(many);

    assertThat(ids).hasSize(1234).isSorted().doesNotHaveDuplicates();
    List<Delivery> taken = queue.take(2000);
    assertThat(taken).extracting(Delivery::id).containsExactlyElementsOf(ids);
    assertThat(taken).extracting(Delivery::payload).containsExactlyElementsOf(many);
  }

  /**
   * EnqueueAll returns the messages' ids in order, after any enqueued before, and all are ready.
   */
  @Test
  public void enqueueAllReturnsIdsInOrderAndEveryMessageIsReady() {
    DurableQueue queue = queue("batch");
    long before = queue.enqueue("before");

    List<Long> ids = queue.enqueueAll(List.of("a", "b", "c"));

    assertThat(ids).hasSize(3).isSorted().doesNotHaveDuplicates();
    assertThat(ids.getFirst()).isGreaterThan(before);
    assertThat(queue.size()).isEqualTo(4);
    List<Delivery> taken = queue.take(10);
    assertThat(taken).extracting(Delivery::payload).containsExactly("before", "a", "b", "c");
    assertThat(taken.subList(1, 4)).extracting(Delivery::id).containsExactlyElementsOf(ids);
    assertThat(queue.enqueueAll(List.of())).isEmpty();
  }

  /** Take returns empty when no message is ready: none enqueued, or all locked. */
  @Test
  public void takeReturnsEmptyWhenNothingIsReady() throws Exception {
    DurableQueue queue = queue("idle");
    assertThat(queue.take(10)).isEmpty();
    assertThat(queue.take(10, Duration.ZERO)).isEmpty();

    queue.enqueueAll(List.of(1, 2));
    assertThat(queue.take(10)).hasSize(2);

    assertThat(queue.take(10)).isEmpty();
  }

  /** A take waiting for a message returns it as soon as another thread enqueues it. */
  @Test
  public void aWaitingTakeReturnsAsSoonAsAnotherThreadEnqueues() throws Exception {
    DurableQueue queue = queue("wakeup");
    FutureTask<List<Delivery>> waiting = waitingTake(queue("wakeup"), Duration.ofMinutes(5));

    long id = queue.enqueue("wake up");

    assertThat(waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
        .extracting(Delivery::id)
        .containsExactly(id);
  }

  /** A take waiting for a message returns it as soon as another consumer releases it. */
  @Test
  public void aWaitingTakeReturnsAsSoonAsAnotherConsumerReleases() throws Exception {
    DurableQueue busy = queue("handover", "busy");
    busy.enqueue("job");
    Delivery taken = takeOne(busy);
    FutureTask<List<Delivery>> waiting =
        waitingTake(queue("handover", "idle"), Duration.ofMinutes(5));

    assertThat(busy.release(taken)).isTrue();

    List<Delivery> got = waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    assertThat(got).extracting(Delivery::id).containsExactly(taken.id());
    assertThat(got.getFirst().lockOwner()).isEqualTo("idle");
    assertThat(got.getFirst().deliveryCount()).isEqualTo(1);
  }

  /** A take waiting for a message returns empty once its wait has passed with none coming. */
  @Test
  public void aWaitingTakeReturnsEmptyWhenNothingComesInTime() throws Exception {
    DurableQueue queue = queue("quiet");
    queue.enqueue("held elsewhere");
    queue.take(1);
    long start = System.nanoTime();

    List<Delivery> taken = queue.take(10, Duration.ofMillis(100));

    Duration waited = Duration.ofNanos(System.nanoTime() - start);
    assertThat(taken).isEmpty();
    assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(100)).isLessThan(PATIENCE);
  }

  /**
   * Two owners taking from 8 threads at once never hold one message together; each is acked once.
   */
  @Test
  public void twoOwnersTakingConcurrentlyGetEachMessageExactlyOnce() throws Exception {
    int messages = 2000;
    queue("shared").enqueueAll(IntStream.range(0, messages).boxed().toList());
    List<DurableQueue> owners = List.of(queue("shared", "node-a"), queue("shared", "node-b"));
    Set<Long> held = ConcurrentHashMap.newKeySet();
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    List<Long> heldTwice = new CopyOnWriteArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> acked = new ArrayList<>();
    try (ExecutorService executor = Executors.newFixedThreadPool(8)) {
      for (int t = 0; t < 8; t++) {
        DurableQueue queue = owners.get(t % 2);
        acked.add(
            executor.submit(
                () -> {
                  start.await();
                  int count = 0;
                  for (List<Delivery> batch = queue.take(16);
                      !batch.isEmpty();
                      batch = queue.take(16)) {
                    for (Delivery delivery : batch) {
                      if (!held.add(delivery.id()) || !seen.add(delivery.id())) {
                        heldTwice.add(delivery.id());
                      }
                    }
                    for (Delivery delivery : batch) {
                      held.remove(delivery.id());
                      count += queue.ack(delivery) ? 1 : 0;
                    }
                  }
                  return count;
                }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> count : acked) {
        total += count.get(1, TimeUnit.MINUTES);
      }
      assertThat(total).isEqualTo(messages);
    }

    assertThat(heldTwice).isEmpty();
    assertThat(seen).hasSize(messages);
    assertThat(queue("shared").size()).isZero();
  }

  /** Queues with different names never see each other's messages. */
  @Test
  public void queuesWithDifferentNamesArePartitioned() {
    DurableQueue orders = queue("orders");
    DurableQueue invoices = queue("invoices");
    orders.enqueue("order");
    invoices.enqueueAll(List.of("invoice-1", "invoice-2"));

    assertThat(orders.size()).isEqualTo(1);
    assertThat(invoices.size()).isEqualTo(2);
    assertThat(orders.take(10)).extracting(Delivery::payload).containsExactly("order");
    assertThat(invoices.take(10))
        .extracting(Delivery::payload)
        .containsExactly("invoice-1", "invoice-2");
  }

  /** A handle takes as the owner its options name, or as one made up for it alone. */
  @Test
  public void aHandleTakesAsItsOwnerOrOneMadeUpForIt() {
    DurableQueue named = queue("owned", "node-7");
    DurableQueue one = storage.queue("owned", QueueOptions.DEFAULTS);
    DurableQueue other = storage.queue("owned", QueueOptions.DEFAULTS);

    assertThat(named.owner()).isEqualTo("node-7");
    assertThat(one.owner()).isNotBlank().isNotEqualTo(other.owner());
    assertThat(one.name()).isEqualTo("owned");
    one.enqueue("x");
    assertThat(takeOne(one).lockOwner()).isEqualTo(one.owner());
  }

  /** Payloads come back equal: a stored message with attributes and variables, 100 KB of bytes. */
  @Test
  public void payloadsRoundTripEqual() {
    DurableQueue queue = queue("payloads");
    StoredMessage message =
        StoredMessage.of(
            Message.of(Map.of("id", 7, "lines", List.of("a", "b")), Map.of("file.name", "o.json"))
                .withVariable("attempt", 2)
                .withVariable("customer", "olá, 世界"));
    byte[] bytes = new byte[100 * 1024];
    new Random(42).nextBytes(bytes);
    queue.enqueueAll(List.of(message, bytes));

    List<Delivery> taken = queue.take(10);

    assertThat(taken).hasSize(2);
    assertThat(taken.get(0).payload()).isEqualTo(message);
    Message back = ((StoredMessage) taken.get(0).payload()).toMessage();
    assertThat(back.attribute("file.name")).isEqualTo("o.json");
    assertThat(back.variables()).isEqualTo(Map.of("attempt", 2, "customer", "olá, 世界"));
    assertThat(taken.get(1).payload()).isInstanceOf(byte[].class).isEqualTo(bytes);
  }

  /**
   * Null and blank names, null payloads and deliveries, and bad counts or durations are refused.
   */
  @Test
  public void nullAndInvalidArgumentsAreRejected() {
    DurableQueue queue = queue("strict");
    queue.enqueue("x");
    Delivery delivery = takeOne(queue);
    List<Object> withNull = new ArrayList<>(List.of("a"));
    withNull.add(null);

    assertThatThrownBy(() -> queue.enqueue(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("payload");
    assertThatThrownBy(() -> queue.enqueueAll(withNull)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> queue.take(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max");
    assertThatThrownBy(() -> queue.take(1, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wait");
    assertThatThrownBy(() -> queue.ack(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> queue.nack(delivery, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay");
    assertThatThrownBy(() -> storage.queue(null, QueueOptions.DEFAULTS))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(() -> storage.queue(" ", QueueOptions.DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");

    assertThat(queue.size()).as("nothing refused was enqueued").isEqualTo(1);
    assertThat(queue.ack(delivery)).as("the refused nack left the lock").isTrue();
  }

  /**
   * A storage that keeps what it wrote has its unacked messages after it is opened again, and new
   * ids keep growing. One locked before the close is delivered again no later than when its lock
   * lapses: a storage owned by one process (embedded SQLite) hands it back at once, as its taker is
   * gone; a shared one (PostgreSQL) waits for the lock, as its taker may be another node.
   */
  @Test
  public void unackedMessagesSurviveClosingAndReopening() throws Exception {
    DurableQueue before = queue("kept");
    List<Long> ids = before.enqueueAll(List.of("locked", "ready-1", "ready-2"));
    Delivery locked = before.take(1).getFirst();
    queue("other").enqueue("elsewhere");

    closeAndReopen();

    DurableQueue after = queue("kept");
    assertThat(after.size()).isEqualTo(3);
    List<Delivery> atOnce = after.take(10);
    assertThat(atOnce)
        .extracting(Delivery::id)
        .as("the ready messages at once, the locked one too if its lock was handed back")
        .isSubsetOf(ids)
        .containsAll(ids.subList(1, 3))
        .isSorted();
    List<Delivery> ready =
        atOnce.stream().filter(delivery -> delivery.id() != locked.id()).toList();
    assertThat(after.ackAll(ready)).isEqualTo(2);
    clock.set(locked.lockExpiry());
    Delivery again =
        atOnce.stream()
            .filter(delivery -> delivery.id() == locked.id())
            .findFirst()
            .orElseGet(() -> takeOne(after));
    assertThat(again.payload()).isEqualTo("locked");
    assertThat(again.deliveryCount()).isEqualTo(2);
    assertThat(after.enqueue("new")).isGreaterThan(ids.getLast());
    assertThat(queue("other").size()).isEqualTo(1);
  }
}
