package io.sluice.testkit;

import io.sluice.core.Message;
import io.sluice.core.spi.Source;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.queue.VmQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The source contract, run against a VM queue listener with one consumer, fed one-way entries on
 * the context's real VM queues. Its consumer thread submits by itself; no timer is involved.
 */
class VmListenerSourceContractTest extends SourceContractTest {

  private static final String QUEUE = "contract";

  @Override
  protected Source newSource(Path workDir) {
    return new VmListenerSource(QUEUE, 1);
  }

  @Override
  protected Predicate<Message> provoke(String content) throws Exception {
    VmQueue queue = context.vmQueues().queue(QUEUE);
    if (!queue.offer(new VmQueue.Entry(Message.of(content), null), Duration.ofSeconds(1))) {
      throw new IllegalStateException("VM queue '" + QUEUE + "' is full");
    }
    return message -> content.equals(message.payload());
  }

  /** An in-memory one-way entry whose flow failed is dealt with by the flow's error handler. */
  @Override
  protected boolean redeliversFailedMessages() {
    return false;
  }

  @Override
  protected boolean keepsRefusedMessages() {
    return true;
  }

  /**
   * Not a contract case: a refusal while publishers have filled the queue again. The refused entry
   * goes back at the head at once (the capacity bounds publishers only), so neither the consumer
   * nor {@code stop()} blocks.
   */
  @Test
  public void aRefusalWhileTheQueueIsFullAgainDoesNotBlockStop() throws Exception {
    VmQueue queue = context.vmQueues().queue(QUEUE);
    AtomicBoolean first = new AtomicBoolean(true);
    context.onSubmit(
        submission -> {
          if (first.getAndSet(false)) {
            fill(queue);
            submission.refuse();
          }
        });
    Predicate<Message> given = provoke(nextContent());
    awaitNextSubmission(given);
    try {
      Assertions.assertTimeoutPreemptively(
          patience(),
          source::stop,
          "stop() blocked: the consumer waits for room to put the refused entry back");
    } finally {
      queue.drainTo(new ArrayList<>(), Integer.MAX_VALUE);
    }
  }

  private static void fill(VmQueue queue) {
    try {
      int n = 0;
      while (queue.offer(new VmQueue.Entry(Message.of("filler-" + n++), null), Duration.ZERO)) {
        // Publishers keep the queue full while the flow refuses.
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
