package io.sluice.core.vm;

import io.sluice.core.store.QueueOptions;
import java.time.Duration;

/**
 * How a persistent VM queue delivers (its messages live in the application's storage, under the
 * durable queue {@code vm/<name>}, and survive a crash): the queue's lock timeout and deliveries
 * before dead-letter, how long a failed message waits before it is delivered again, and how many
 * messages a listener holds at once.
 *
 * @param queue lock timeout, deliveries before dead-letter, serializer
 * @param redeliveryDelay how long a message whose flow failed waits before it is delivered again
 * @param maxOutstanding the most messages a listener has handed to its flow and not seen end
 */
public record VmPersistence(QueueOptions queue, Duration redeliveryDelay, int maxOutstanding) {

  /** Redelivery after 1 s unless set. */
  public static final Duration DEFAULT_REDELIVERY_DELAY = Duration.ofSeconds(1);

  /** 256 messages held per listener unless set. */
  public static final int DEFAULT_MAX_OUTSTANDING = 256;

  /** The queue defaults, redelivery after 1 s, 256 held. */
  public static final VmPersistence DEFAULTS =
      new VmPersistence(QueueOptions.DEFAULTS, DEFAULT_REDELIVERY_DELAY, DEFAULT_MAX_OUTSTANDING);

  /** Checks the settings. */
  public VmPersistence {
    if (queue == null) {
      throw new IllegalArgumentException("queue options are required");
    }
    if (redeliveryDelay == null || redeliveryDelay.isNegative()) {
      throw new IllegalArgumentException(
          "redeliveryDelay must be zero or a positive duration, was " + redeliveryDelay);
    }
    if (maxOutstanding < 1) {
      throw new IllegalArgumentException(
          "maxOutstanding must be at least 1, was " + maxOutstanding);
    }
  }

  /** The durable queue's name for the VM queue {@code name}. */
  public static String durableName(String name) {
    return "vm/" + name;
  }
}
