package io.sluice.core.vm;

import io.sluice.core.SluiceException;

/**
 * A durable queue handler's failure that no retry can mend: the {@link DurableQueueListener} sends
 * the message to the dead letters at once, with this exception's message as the reason, instead of
 * delivering it again.
 */
public final class DeadLetterException extends SluiceException {

  /** A failure whose message is the reason the dead letter keeps; the cause is what failed. */
  public DeadLetterException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
