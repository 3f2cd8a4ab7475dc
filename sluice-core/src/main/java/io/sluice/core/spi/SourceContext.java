package io.sluice.core.spi;

import io.sluice.core.Message;
import java.util.concurrent.CompletableFuture;

/** What a source uses to hand messages to its flow. */
public interface SourceContext extends FlowContext {

  /**
   * Hands a message to the flow. Backpressure happens here, as the flow's strategy says: this call
   * may block until there is room (WAIT), or return a future already failed with a {@link
   * io.sluice.core.FlowBusyException} (REJECT, DISCARD, or WAIT past its timeout). The future
   * completes with the message as the flow ended it, or with the flow's error.
   */
  CompletableFuture<Message> submit(Message message);

  /**
   * Hands a message to the flow without ever holding the calling thread: where {@link #submit}
   * would wait for room (WAIT) or run the flow on the caller (CALLER_RUNS), the returned future is
   * already failed with a {@link io.sluice.core.FlowBusyException}. For sources whose thread must
   * never block, such as a network event loop that answers "busy" itself (HTTP 503). Work the flow
   * took runs as with {@code submit}: CPU_LITE processors of the {@code auto} strategy still run on
   * the calling thread.
   *
   * <p>The default delegates to {@link #submit}, for contexts that never block anyway.
   */
  default CompletableFuture<Message> offer(Message message) {
    return submit(message);
  }
}
