package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.queue.VmQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A listener holds entries it took from its queue while the flow decides; publishers fill the room
 * they left. When the flow then refuses one, the listener must not wait for room to put it back: it
 * is the queue's only consumer, so that room would never come.
 */
class VmListenerNeverBlocksOnAFullQueueTest {

  private final List<Object> received = new CopyOnWriteArrayList<>();

  private final Processor record = Received.into(received);

  @Test
  @Timeout(30)
  void anEntryRefusedWhileTheQueueFilledUpIsDeliveredLaterAndStopReturns() throws Exception {
    Gate gate = Gate.blocking();
    ProcessingStrategy oneAtATime =
        new ProcessingStrategy.Auto(1, ExhaustedAction.WAIT, Duration.ofMillis(300), 1, 1);
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1))
            .strategy(oneAtATime)
            .processor(gate)
            .processor(record)
            .build();
    Application app = Application.builder().flow(listener).vmQueueCapacity(2).build();
    app.start();
    try {
      VmQueue queue = app.vmQueues().queue("q");
      // A message sent to the flow directly holds its one place at the gate.
      app.send("in", Message.of("held"));
      await().until(() -> gate.holding() == 1);
      offer(queue, 0);
      offer(queue, 1);
      // 0 is in the listener's hands waiting to be admitted.
      await().until(() -> queue.size() == 1);
      offer(queue, 2);

      // 0 is refused once its wait times out, with the queue full behind it.
      await()
          .until(
              () ->
                  app.meterRegistry()
                          .get("sluice.flow.messages")
                          .tag("flow", "in")
                          .tag("outcome", "refused")
                          .counter()
                          .count()
                      >= 1);
      gate.open();

      await().until(() -> received.size() == 4);
      assertThat(received).containsExactly("held", 0, 1, 2);
    } finally {
      gate.open();
      assertThat(app.stop()).isTrue();
    }
  }

  private static void offer(VmQueue queue, int payload) throws InterruptedException {
    assertThat(queue.offer(new VmQueue.Entry(Message.of(payload), null), Duration.ofSeconds(5)))
        .as("room for %s", payload)
        .isTrue();
  }
}
