package io.sluice.bench;

import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.queue.VmQueue;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A running application with one flow fed by a VM queue and ending in a counting sink, and the
 * means to push a batch through it and wait until the sink saw all of it.
 */
final class FlowFixture implements AutoCloseable {

  private final Application app;
  private final VmQueue input;
  private volatile Batch batch;

  private static final class Batch {
    final AtomicInteger remaining;
    final CountDownLatch done = new CountDownLatch(1);

    Batch(int size) {
      remaining = new AtomicInteger(size);
    }
  }

  FlowFixture(String strategy, int processors, boolean withSink) {
    // Two consumers hand messages over without waiting for each to end (one keeps FIFO order by
    // taking the next only once the last ended): the flow, not the listener, is measured.
    Flow.Builder flow =
        Flow.builder("bench").strategy(strategy(strategy)).source(new VmListenerSource("in", 2));
    for (int i = 0; i < processors; i++) {
      String name = "v" + i;
      flow.processor(lite(m -> m.withVariable(name, m.payload())));
    }
    Processor count =
        lite(
            m -> {
              Batch current = batch;
              if (current.remaining.decrementAndGet() == 0) {
                current.done.countDown();
              }
              return m;
            });
    if (withSink) {
      flow.sink(count);
    } else {
      flow.processor(count);
    }
    this.app = Application.builder().flow(flow.build()).vmQueueCapacity(100_000).build();
    app.start();
    this.input = app.vmQueues().queue("in");
  }

  static ProcessingStrategy strategy(String name) {
    ThreadingProfile profile =
        ThreadingProfile.builder().maxThreadsActive(16).maxQueue(10_000).build();
    return switch (name) {
      case "synchronous" -> new ProcessingStrategy.Synchronous(profile);
      case "staged" -> new ProcessingStrategy.Staged(profile, profile, profile);
      case "auto" -> ProcessingStrategy.defaultStrategy();
      default -> throw new IllegalArgumentException("unknown strategy " + name);
    };
  }

  /** Sends {@code size} messages and waits until the sink counted every one. */
  void pushAndAwait(int size) throws InterruptedException {
    Batch current = new Batch(size);
    batch = current;
    Message message = Message.of("payload");
    for (int i = 0; i < size; i++) {
      if (!input.offer(new VmQueue.Entry(message, null), Duration.ofSeconds(30))) {
        throw new IllegalStateException("the VM queue stayed full for 30 s");
      }
    }
    if (!current.done.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException(current.remaining.get() + " messages never reached the sink");
    }
  }

  private static Processor lite(java.util.function.UnaryOperator<Message> body) {
    return Processor.of(ProcessingType.CPU_LITE, body::apply);
  }

  @Override
  public void close() {
    app.stop();
  }
}
