package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;

/**
 * What the parts of the {@link DurableQueueContractTest} share: a new storage before each test
 * (from {@link StorageContract}), made by the implementation the part is nested in, and the helpers
 * that open queues, take and wait.
 *
 * <p>Lock expiries and delays are measured on {@link #clock}, which moves only when a test moves
 * it; only the wait of {@link DurableQueue#take(int, Duration)} is real time.
 */
public abstract class DurableQueueContract extends StorageContract {

  /** The implementation under test: the {@link DurableQueueContractTest} this part is nested in. */
  protected abstract DurableQueueContractTest implementation();

  @Override
  protected final Storage newStorage(Clock clock) throws Exception {
    return implementation().newStorage(clock);
  }

  @Override
  protected final Storage reopen(Clock clock) throws Exception {
    return implementation().reopen(clock);
  }

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

  protected DurableQueue queue(String name, QueueOptions options) {
    return storage.queue(name, options.withLockTimeout(LOCK));
  }

  protected static void assertThatIsTheOnlyDeadLetter(
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
  protected static FutureTask<List<Delivery>> waitingTake(DurableQueue queue, Duration wait) {
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
