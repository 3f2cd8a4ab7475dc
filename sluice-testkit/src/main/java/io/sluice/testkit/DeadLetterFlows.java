package io.sluice.testkit;

import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two flows that make dead letters on purpose, for tests of what an operator does with them: {@code
 * publish} sends to the persistent queue {@code orders}, and {@code consume} takes each message
 * once ({@code maxDeliveries} 1) and fails it while its downstream is down, so the message goes to
 * the dead letters; once {@link #downstreamUp} is set it handles what it takes.
 */
public final class DeadLetterFlows {

  /** The queue's name in the store. */
  public static final String QUEUE = VmPersistence.durableName("orders");

  /** Whether {@code consume} handles what it takes, or fails it. */
  public final AtomicBoolean downstreamUp = new AtomicBoolean();

  /** Messages {@code consume} handled. */
  public final AtomicInteger handled = new AtomicInteger();

  /** The flow that publishes what it is sent to the queue. */
  public Flow publish() {
    return Flow.builder("publish")
        .processor(new VmPublishProcessor("orders", false, Duration.ofSeconds(5), true))
        .build();
  }

  /** The flow that takes from the queue, failing while the downstream is down. */
  public Flow consume() {
    return Flow.builder("consume")
        .source(
            new VmListenerSource(
                "orders",
                1,
                new VmPersistence(
                    QueueOptions.DEFAULTS.withMaxDeliveries(1),
                    Duration.ZERO,
                    VmPersistence.DEFAULT_MAX_OUTSTANDING)))
        .processor(
            Processor.of(
                ProcessingType.CPU_LITE,
                m -> {
                  if (!downstreamUp.get()) {
                    throw new IllegalStateException("downstream refused " + m.payload());
                  }
                  handled.incrementAndGet();
                  return m;
                }))
        .build();
  }
}
