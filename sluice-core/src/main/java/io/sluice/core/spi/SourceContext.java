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
}
