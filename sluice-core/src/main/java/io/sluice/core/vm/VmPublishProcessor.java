package io.sluice.core.vm;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.transaction.OpenTransactions;
import io.sluice.core.vm.queue.VmQueue;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends the message to a VM queue: one-way (returns at once with the message unchanged) or
 * request-reply (waits for the listening flow's result and returns it, the caller's variables
 * kept). Waits up to {@code timeout} for room in the queue, and for the reply. A persistent publish
 * inside a {@code try} with a transaction joins it when the data source is the application's own
 * store, and is made after the commit otherwise.
 */
public final class VmPublishProcessor implements Processor {

  private final String queueName;
  private final boolean requestReply;
  private final Duration timeout;
  private final boolean persistent;
  private final String serializer;
  private volatile VmQueue queue;
  private volatile DurableQueue durable;

  /** Publishes to {@code queueName}; {@code requestReply} waits for the answer. */
  public VmPublishProcessor(String queueName, boolean requestReply, Duration timeout) {
    this(queueName, requestReply, timeout, false);
  }

  /**
   * Publishes to {@code queueName}; {@code requestReply} waits for the answer; {@code persistent}
   * publishes one-way to the persistent queue of that name, returning once the message is committed
   * to the application's storage.
   */
  public VmPublishProcessor(
      String queueName, boolean requestReply, Duration timeout, boolean persistent) {
    this(queueName, requestReply, timeout, persistent, null);
  }

  /**
   * As above; a persistent queue's messages are written with the named {@code serializer} (null:
   * the application's default). Only a persistent queue stores anything.
   */
  public VmPublishProcessor(
      String queueName,
      boolean requestReply,
      Duration timeout,
      boolean persistent,
      String serializer) {
    if (serializer != null && !persistent) {
      throw new IllegalArgumentException(
          "VM queue '"
              + queueName
              + "': serializer '"
              + serializer
              + "' applies only to a persistent queue; an in-memory queue stores nothing");
    }
    if (persistent && requestReply) {
      throw new IllegalArgumentException(
          "VM queue '"
              + queueName
              + "': a persistent queue is one-way; a reply cannot outlive the process that waits"
              + " for it. Use vm-publish, or a non-persistent queue for request-reply");
    }
    this.queueName = queueName;
    this.requestReply = requestReply;
    this.timeout = timeout;
    this.persistent = persistent;
    this.serializer = serializer;
  }

  @Override
  public void start(FlowContext context) {
    if (persistent) {
      durable =
          context
              .storage()
              .queue(
                  VmPersistence.durableName(queueName),
                  QueueOptions.DEFAULTS.withSerializer(serializer));
    } else {
      queue = context.vmQueues().queue(queueName);
    }
  }

  @Override
  public Message process(Message message) throws Exception {
    if (durable != null) {
      publishDurably(message);
      return message;
    }
    CompletableFuture<Message> reply = requestReply ? new CompletableFuture<>() : null;
    long deadline = System.nanoTime() + timeout.toNanos();
    if (!queue.offer(
        new VmQueue.Entry(message.withError(null).withoutTransactions(), reply), timeout)) {
      throw new SluiceException(
          "VM queue '"
              + queueName
              + "' stayed full ("
              + queue.capacity()
              + " entries) for "
              + timeout
              + "; is a flow listening on it?");
    }
    if (reply == null) {
      return message;
    }
    try {
      Message answer = reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return message.withPayload(answer.payload()).withAttributes(answer.attributes());
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } catch (TimeoutException e) {
      throw new TimeoutException("no reply from VM queue '" + queueName + "' within " + timeout);
    }
  }

  /**
   * Enqueues now; inside a transaction on the store's own database, in that transaction (committed
   * or rolled back with its rows); inside one on another database, once it and every transaction
   * around it committed (never when one rolls back).
   */
  private void publishDurably(Message message) {
    StoredMessage stored = StoredMessage.of(message);
    OpenTransactions open = message.transactions();
    if (open == null) {
      durable.enqueue(stored);
    } else if (durable.joins(open.innermost())) {
      durable.enqueue(stored, open.innermost());
    } else {
      afterCommits(open, () -> durable.enqueue(stored));
    }
  }

  /** Runs {@code publish} once every one of {@code open} committed, innermost first. */
  private static void afterCommits(OpenTransactions open, Runnable publish) {
    if (open == null) {
      publish.run();
    } else {
      open.innermost().afterCommit(() -> afterCommits(open.outer(), publish));
    }
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return (requestReply ? "vm-request(" : "vm-publish(")
        + (persistent ? "persistent " : "")
        + queueName
        + ")";
  }
}
