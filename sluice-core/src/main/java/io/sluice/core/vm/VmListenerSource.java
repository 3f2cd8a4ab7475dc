package io.sluice.core.vm;

import io.sluice.core.FlowBusyException;
import io.sluice.core.Message;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * A source that takes messages from a VM queue. Its consumer threads hand each entry to the flow;
 * an entry the flow refuses is kept by the listener and handed again before anything newer, so
 * nothing sent is lost. For a request-reply entry, the flow's result (or error) is the reply.
 */
public final class VmListenerSource implements Source {

  private static final Duration POLL = Duration.ofMillis(50);
  private static final int BATCH = 64;

  private final String queueName;
  private final int consumers;
  private final List<Thread> threads = new ArrayList<>();
  // Refused entries wait here, not back in the queue: publishers may have filled the room they
  // left, and a consumer waiting for room in its own queue would wait forever.
  private final Deque<VmQueue.Entry> refused = new ConcurrentLinkedDeque<>();
  private volatile boolean running;

  /** Listens on {@code queueName} with {@code consumers} threads (1 keeps FIFO order). */
  public VmListenerSource(String queueName, int consumers) {
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers must be at least 1, was " + consumers);
    }
    this.queueName = queueName;
    this.consumers = consumers;
  }

  @Override
  public void start(SourceContext context) {
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

  private void consume(VmQueue queue, SourceContext context) {
    List<VmQueue.Entry> batch = new ArrayList<>(BATCH);
    try {
      while (running) {
        for (VmQueue.Entry again; batch.size() < BATCH && (again = refused.pollFirst()) != null; ) {
          batch.add(again);
        }
        if (batch.isEmpty()) {
          VmQueue.Entry first = queue.poll(POLL);
          if (first == null) {
            continue;
          }
          batch.add(first);
        }
        queue.drainTo(batch, BATCH - batch.size());
        int handed = 0;
        while (handed < batch.size() && running) {
          if (!hand(batch.get(handed), context)) {
            break;
          }
          handed++;
        }
        for (int i = batch.size() - 1; i >= handed; i--) {
          refused.addFirst(batch.get(i));
        }
        if (handed < batch.size() && running) {
          // The flow is full: give it a moment before trying again.
          LockSupport.parkNanos(POLL.toNanos() / 5);
        }
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Hands one entry over; false when the flow refused it and it must be handed again. */
  private boolean hand(VmQueue.Entry entry, SourceContext context) {
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
      // the entry is kept so it is delivered again (at least once), never dropped.
      result.whenComplete(
          (ignored, error) -> {
            if (unwrap(error) instanceof FlowBusyException) {
              refused.addFirst(entry);
            }
          });
    }
    return true;
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null
        ? c.getCause()
        : error;
  }

  @Override
  public boolean fedByOtherFlows() {
    return true;
  }

  @Override
  public void stop() {
    running = false;
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    threads.clear();
  }

  @Override
  public String name() {
    return "vm-listener(" + queueName + ")";
  }
}
