package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
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
 * The contract every {@link DurableQueue} keeps, to extend once per {@link Storage}: FIFO takes
 * that lock; acks, nacks and releases fenced by the lock that took the message; redelivery when a
 * lock lapses; dead letters after {@link QueueOptions#maxDeliveries()}; competing owners that never
 * hold one message at once; queues of different names partitioned; and, for a storage that keeps
 * what it wrote, messages that survive closing and opening it again.
 *
 * <p>A subclass gives a new, empty storage ({@link #newStorage}) and, when it keeps anything, the
 * same storage opened again ({@link #reopen}). Lock expiries and delays are measured on {@link
 * #clock}, which moves only when a test moves it; only the wait of {@link DurableQueue#take(int,
 * Duration)} is real time.
 */
public abstract class DurableQueueContractTest extends StorageContract {

  /** The lock timeout of the queues under test. */
  protected static final Duration LOCK = Duration.ofSeconds(30);

  /** How long a test waits for what must happen at once. */
  protected static final Duration PATIENCE = Duration.ofSeconds(10);

  /** The queue {@code name} with {@link #LOCK} locks and the default deliveries. */
  protected DurableQueue queue(String name) {
    return storage.queue(name, QueueOptions.DEFAULTS.withLockTimeout(LOCK));
  }

  /** The queue {@code name} with {@link #LOCK} locks, taking as {@code owner}. */
  protected DurableQueue queue(String name, String owner) {
    return storage.queue(name, QueueOptions.DEFAULTS.withLockTimeout(LOCK).withOwner(owner));
  }

  /** Takes the one ready message, failing when there is none or more. */
  protected static Delivery takeOne(DurableQueue queue) {
    List<Delivery> taken = queue.take(10);
    assertThat(taken).as("the ready messages of %s", queue.name()).hasSize(1);
    return taken.getFirst();
  }

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

  private DurableQueue queue(String name, QueueOptions options) {
    return storage.queue(name, options.withLockTimeout(LOCK));
  }

  private static void assertThatIsTheOnlyDeadLetter(
      DurableQueue queue, long id, Object payload, int deliveries) {
    assertThat(queue.deadLetterCount()).isEqualTo(1);
    assertThat(queue.deadLetters(10))
        .singleElement()
        .satisfies(
            dead -> {
              assertThat(dead.id()).isEqualTo(id);
              assertThat(dead.payload()).isEqualTo(payload);
              assertThat(dead.deliveryCount()).isEqualTo(deliveries);
            });
  }

  /** Starts a take with {@code wait} on its own thread and returns once it is waiting. */
  private static FutureTask<List<Delivery>> waitingTake(DurableQueue queue, Duration wait) {
    FutureTask<List<Delivery>> take = new FutureTask<>(() -> queue.take(1, wait));
    Thread taker = new Thread(take, "waiting-take");
    taker.setDaemon(true);
    taker.start();
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                taker.getState() == Thread.State.TIMED_WAITING
                    || taker.getState() == Thread.State.WAITING
                    || take.isDone());
    assertThat(take.isDone()).as("the take waits while nothing is ready").isFalse();
    return take;
  }
}
