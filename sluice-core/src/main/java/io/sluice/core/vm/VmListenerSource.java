package io.sluice.core.vm;

import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.MessageDiscardedException;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.vm.queue.VmQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * A source that takes messages from a VM queue. Its consumer threads hand each entry to the flow;
 * an entry the flow refuses (at once, or later from an inner stage) goes back to the head of the
 * queue, so nothing sent is lost to a busy flow. For a request-reply entry, the flow's result (or
 * error) is the reply. A one-way entry whose flow failed is not delivered again: the flow's error
 * handler is where it is dealt with (redelivery with a dead-letter limit is the persistent queue's
 * job). Nor is one the flow discarded ({@link MessageDiscardedException}, exhausted action
 * DISCARD): it is dropped, as the flow said, not put back to be discarded again.
 *
 * <p>One consumer keeps FIFO order: it hands one message over and waits until the flow ended it (or
 * refused it, and it went back to the head) before it takes the next, so messages finish in the
 * order sent, however long each takes and whatever the strategy. More consumers hand messages over
 * without waiting for them, in no set order, as fast as the flow takes them.
 *
 * <p>A persistent listener ({@link VmPersistence}) takes from the durable queue instead: each
 * message is acknowledged when its flow completes, released when the flow is busy, and delivered
 * again after the redelivery delay when the flow failed (to the dead letters after the queue's most
 * deliveries); the attribute {@code deliveryCount} says how many times it was delivered.
 */
public final class VmListenerSource implements Source, HealthContributor {

  private static final Duration POLL = Duration.ofMillis(50);
  private static final int BATCH = 64;

  private final String queueName;
  private final int consumers;
  private final VmPersistence persistence;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running;
  private volatile DurableQueueListener durable;

  /** Listens on {@code queueName} with {@code consumers} threads (1 keeps FIFO order). */
  public VmListenerSource(String queueName, int consumers) {
    this(queueName, consumers, null);
  }

  /**
   * Listens on {@code queueName} with {@code consumers} threads (1 keeps FIFO order); when {@code
   * persistence} is set, on the persistent queue of that name, whose messages survive a crash and
   * are delivered at least once.
   */
  public VmListenerSource(String queueName, int consumers, VmPersistence persistence) {
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers must be at least 1, was " + consumers);
    }
    this.queueName = queueName;
    this.consumers = consumers;
    this.persistence = persistence;
  }

  /** Whether it listens on the persistent queue. */
  public boolean persistent() {
    return persistence != null;
  }

  /** How its persistent queue delivers, or null when it listens on the in-memory one. */
  public VmPersistence persistence() {
    return persistence;
  }

  @Override
  public void start(SourceContext context) {
    if (persistence != null) {
      startDurable(context);
      return;
    }
    VmQueue queue = context.vmQueues().queue(queueName);
    running = true;
    for (int i = 0; i < consumers; i++) {
      Thread thread =
          Thread.ofPlatform()
              .daemon()
              .name("sluice-" + context.flowName() + "-vm-" + queueName + "-" + (i + 1))
              .start(() -> consume(queue, context));
      threads.add(thread);
    }
  }

  private void startDurable(SourceContext context) {
    DurableQueue queue =
        context.storage().queue(VmPersistence.durableName(queueName), persistence.queue());
    // One consumer keeps FIFO order only if it holds one message at a time.
    int maxOutstanding = consumers == 1 ? 1 : Math.max(consumers, persistence.maxOutstanding());
    durable =
        new DurableQueueListener(
            queue,
            "sluice-" + context.flowName() + "-vm-" + queueName,
            consumers,
            maxOutstanding,
            persistence.redeliveryDelay(),
            delivery -> endsIfDiscarded(context.submit(delivered(delivery))),
            context.meterRegistry());
    durable.start();
  }

  /**
   * A discarded message ended as the flow said: its delivery completes, so the listener
   * acknowledges it rather than releasing it to be discarded again.
   */
  private static CompletableFuture<?> endsIfDiscarded(CompletableFuture<Message> result) {
    // On a future already done, handle runs at once: a refusal is still seen as one at once.
    return result.handle(VmListenerSource::endIfDiscarded);
  }

  private static Message endIfDiscarded(Message message, Throwable error) {
    if (error == null || unwrap(error) instanceof MessageDiscardedException) {
      return message;
    }
    throw error instanceof CompletionException c ? c : new CompletionException(error);
  }

  /** The message a delivery carries, with how many times it was delivered. */
  private static Message delivered(Delivery delivery) {
    return ((StoredMessage) delivery.payload())
        .toMessage()
        .withAttribute("deliveryCount", delivery.deliveryCount());
  }

  private void consume(VmQueue queue, SourceContext context) {
    // One consumer takes one entry at a time and waits for its end: FIFO even for slow messages.
    int batchSize = consumers == 1 ? 1 : BATCH;
    List<VmQueue.Entry> batch = new ArrayList<>(batchSize);
    int handed = 0;
    try {
      while (running) {
        VmQueue.Entry first = queue.poll(POLL);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, batchSize - 1);
        handed = 0;
        CompletableFuture<?> last = null;
        while (handed < batch.size() && running) {
          last = hand(batch.get(handed), queue, context);
          if (last == null) {
            break;
          }
          handed++;
        }
        boolean refused = handed < batch.size() && running;
        putBack(queue, batch, handed);
        batch.clear();
        if (refused) {
          // The flow is full: give it a moment before trying again.
          LockSupport.parkNanos(POLL.toNanos() / 5);
        } else if (consumers == 1 && last != null) {
          awaitEnd(last);
        }
      }
    } catch (InterruptedException e) {
      // stop() interrupts a consumer that stays blocked in a submit; what it holds goes back.
      putBack(queue, batch, handed);
    }
  }

  /**
   * Waits until the flow ended a message and its outcome was dealt with (a late refusal put it back
   * at the head), so the next take finds it first.
   */
  private static void awaitEnd(CompletableFuture<?> settled) throws InterruptedException {
    try {
      settled.get();
    } catch (ExecutionException | java.util.concurrent.CancellationException ended) {
      // How it ended was dealt with by hand(); only that it ended matters here.
    }
  }

  /** Puts back, in order, the entries of the batch from {@code from} on. */
  private static void putBack(VmQueue queue, List<VmQueue.Entry> batch, int from) {
    for (int i = batch.size() - 1; i >= from; i--) {
      queue.putBack(batch.get(i));
    }
  }

  /**
   * Hands one entry over. Returns a future that completes once the flow ended the entry and the
   * outcome was dealt with, or null when the flow refused it at once and it must go back.
   */
  private CompletableFuture<?> hand(VmQueue.Entry entry, VmQueue queue, SourceContext context) {
    CompletableFuture<Message> result = context.submit(entry.message());
    if (result.isCompletedExceptionally()
        && entry.reply() == null
        && putsBack(result.exceptionNow())) {
      return null;
    }
    if (entry.reply() != null) {
      return result.whenComplete(
          (reply, error) -> {
            if (error != null) {
              entry.reply().completeExceptionally(error);
            } else {
              entry.reply().complete(reply);
            }
          });
    }
    // A stage inside the flow (staged: flow or dispatcher) may refuse after submit returned; the
    // entry goes back so it is delivered again (at least once), never dropped unless discarded.
    return result.whenComplete(
        (ignored, error) -> {
          if (putsBack(error)) {
            queue.putBack(entry);
          }
        });
  }

  /** Whether a one-way entry refused with {@code error} goes back: busy, not discarded. */
  private static boolean putsBack(Throwable error) {
    Throwable cause = unwrap(error);
    return cause instanceof FlowBusyException && !(cause instanceof MessageDiscardedException);
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }

  @Override
  public boolean fedByOtherFlows() {
    return true;
  }

  /** The durable queue a persistent listener takes from while it runs; null otherwise. */
  public DurableQueueListener durableListener() {
    return durable;
  }

  @Override
  public List<HealthCheck> health() {
    DurableQueueListener listener = durable;
    return listener == null ? List.of() : List.of(listener.health());
  }

  @Override
  public String component() {
    return "vm-listener " + queueName;
  }

  @Override
  public void stop() {
    if (durable != null) {
      durable.stop();
      durable = null;
      return;
    }
    running = false;
    // A consumer notices within one poll; one blocked handing a message over is interrupted (the
    // flow answers with a refusal) and what it holds goes back.
    ConsumerThreads.stop(threads, POLL.multipliedBy(2));
  }

  @Override
  public String name() {
    return (persistence != null ? "vm-listener(persistent " : "vm-listener(") + queueName + ")";
  }
}
