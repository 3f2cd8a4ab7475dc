package io.sluice.core.vm;

import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.internal.ConsumerThreads;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.DurableQueueListener;
import io.sluice.core.store.StoredMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;

/**
 * A source that takes messages from a VM queue. Its consumer threads hand each entry to the flow;
 * an entry the flow refuses (at once, or later from an inner stage) goes back to the head of the
 * queue, so nothing sent is lost to a busy flow. For a request-reply entry, the flow's result (or
 * error) is the reply. A one-way entry whose flow failed is not delivered again: the flow's error
 * handler is where it is dealt with (redelivery with a dead-letter limit is the persistent queue's
 * job).
 *
 * <p>A persistent listener ({@link VmPersistence}) takes from the durable queue instead: each
 * message is acknowledged when its flow completes, released when the flow is busy, and delivered
 * again after the redelivery delay when the flow failed (to the dead letters after the queue's most
 * deliveries); the attribute {@code deliveryCount} says how many times it was delivered.
 */
public final class VmListenerSource implements Source {

  private static final Duration POLL = Duration.ofMillis(50);
  private static final int BATCH = 64;

  private final String queueName;
  private final int consumers;
  private final VmPersistence persistence;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running;
  private DurableQueueListener durable;

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
    durable =
        new DurableQueueListener(
            queue,
            "sluice-" + context.flowName() + "-vm-" + queueName,
            consumers,
            Math.max(consumers, persistence.maxOutstanding()),
            persistence.redeliveryDelay(),
            delivery -> context.submit(delivered(delivery)),
            context.meterRegistry());
    durable.start();
  }

  /** The message a delivery carries, with how many times it was delivered. */
  private static Message delivered(Delivery delivery) {
    return ((StoredMessage) delivery.payload())
        .toMessage()
        .withAttribute("deliveryCount", delivery.deliveryCount());
  }

  private void consume(VmQueue queue, SourceContext context) {
    List<VmQueue.Entry> batch = new ArrayList<>(BATCH);
    int handed = 0;
    try {
      while (running) {
        VmQueue.Entry first = queue.poll(POLL);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, BATCH - 1);
        handed = 0;
        while (handed < batch.size() && running && hand(batch.get(handed), queue, context)) {
          handed++;
        }
        boolean refused = handed < batch.size() && running;
        putBack(queue, batch, handed);
        batch.clear();
        if (refused) {
          // The flow is full: give it a moment before trying again.
          LockSupport.parkNanos(POLL.toNanos() / 5);
        }
      }
    } catch (InterruptedException e) {
      // stop() interrupts a consumer that stays blocked in a submit; what it holds goes back.
      putBack(queue, batch, handed);
    }
  }

  /** Puts back, in order, the entries of the batch from {@code from} on. */
  private static void putBack(VmQueue queue, List<VmQueue.Entry> batch, int from) {
    for (int i = batch.size() - 1; i >= from; i--) {
      queue.putBack(batch.get(i));
    }
  }

  /** Hands one entry over; false when the flow refused it and it must go back. */
  private boolean hand(VmQueue.Entry entry, VmQueue queue, SourceContext context) {
    CompletableFuture<Message> result = context.submit(entry.message());
    if (result.isCompletedExceptionally() && entry.reply() == null) {
      Throwable cause = result.exceptionNow();
      if (cause instanceof FlowBusyException) {
        return false;
      }
    }
    if (entry.reply() != null) {
      result.whenComplete(
          (reply, error) -> {
            if (error != null) {
              entry.reply().completeExceptionally(error);
            } else {
              entry.reply().complete(reply);
            }
          });
    } else {
      // A stage inside the flow (staged: flow or dispatcher) may refuse after submit returned;
      // the entry goes back so it is delivered again (at least once), never dropped.
      result.whenComplete(
          (ignored, error) -> {
            if (unwrap(error) instanceof FlowBusyException) {
              queue.putBack(entry);
            }
          });
    }
    return true;
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }

  @Override
  public boolean fedByOtherFlows() {
    return true;
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
