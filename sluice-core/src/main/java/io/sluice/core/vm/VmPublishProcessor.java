package io.sluice.core.vm;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends the message to a VM queue: one-way (returns at once with the message unchanged) or
 * request-reply (waits for the listening flow's result and returns it, the caller's variables
 * kept). Waits up to {@code timeout} for room in the queue, and for the reply.
 */
public final class VmPublishProcessor implements Processor {

  private final String queueName;
  private final boolean requestReply;
  private final Duration timeout;
  private volatile VmQueue queue;

  /** Publishes to {@code queueName}; {@code requestReply} waits for the answer. */
  public VmPublishProcessor(String queueName, boolean requestReply, Duration timeout) {
    this.queueName = queueName;
    this.requestReply = requestReply;
    this.timeout = timeout;
  }

  @Override
  public void start(FlowContext context) {
    queue = context.vmQueues().queue(queueName);
  }

  @Override
  public Message process(Message message) throws Exception {
    CompletableFuture<Message> reply = requestReply ? new CompletableFuture<>() : null;
    long deadline = System.nanoTime() + timeout.toNanos();
    if (!queue.offer(new VmQueue.Entry(message.withError(null), reply), timeout)) {
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

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return (requestReply ? "vm-request(" : "vm-publish(") + queueName + ")";
  }
}
