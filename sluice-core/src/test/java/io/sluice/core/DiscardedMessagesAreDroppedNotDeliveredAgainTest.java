package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import io.sluice.core.vm.queue.VmQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 45 messages reach a flow busy with the first, whose full stage DISCARDs: the 44 others are
 * dropped once each and counted, not put back to be refused again and again (1,706 refusals for 45
 * messages in 4 s before), and the VM queue ends empty: in memory, persistent, and when the stage
 * that discards is inside a staged flow, after the listener's submit returned.
 */
class DiscardedMessagesAreDroppedNotDeliveredAgainTest {

  private static final int MESSAGES = 45;

  private final Storage storage = new MemoryStorage(Clock.systemUTC());
  private final List<Object> received = new CopyOnWriteArrayList<>();
  private final Gate gate = Gate.blocking();
  private final Processor record = Received.into(received);

  @AfterEach
  void close() {
    gate.open();
    storage.close();
  }

  private static final ThreadingProfile ONE_DISCARDING =
      Profiles.oneThread(0, ExhaustedAction.DISCARD);

  @Test
  void aSynchronousFlowBehindAnInMemoryListenerDropsWhatItDiscards() throws Exception {
    runInMemory(new ProcessingStrategy.Synchronous(ONE_DISCARDING), "receiver");
  }

  @Test
  void anInnerStageOfAStagedFlowDropsWhatItDiscardsAfterTheSubmitReturned() throws Exception {
    ThreadingProfile roomy = Profiles.threads(4);
    runInMemory(new ProcessingStrategy.Staged(roomy, ONE_DISCARDING, roomy), "flow");
  }

  @Test
  void anAutoFlowWhoseBackpressureIsDiscardDropsWhatItDiscards() throws Exception {
    runInMemory(
        new ProcessingStrategy.Auto(1, ExhaustedAction.DISCARD, Duration.ofSeconds(5), 4, 4),
        "auto");
  }

  @Test
  void aPersistentListenerAcknowledgesWhatItsFlowDiscards() throws Exception {
    VmPersistence persistence = new VmPersistence(QueueOptions.DEFAULTS, Duration.ZERO, 64);
    Flow worker =
        Flow.builder("in")
            .source(new VmListenerSource("q", 2, persistence))
            .strategy(new ProcessingStrategy.Synchronous(ONE_DISCARDING))
            .processor(gate)
            .processor(record)
            .build();
    Flow publisher =
        Flow.builder("out")
            .processor(new VmPublishProcessor("q", false, Duration.ofSeconds(10), true))
            .build();
    try (Application app =
        Application.builder().storage(storage).flow(publisher).flow(worker).build()) {
      app.start();
      for (int i = 0; i < MESSAGES; i++) {
        app.send("out", Message.of(i)).get(10, TimeUnit.SECONDS);
      }
      await().until(() -> gate.holding() == 1 && discarded(app, "receiver") == MESSAGES - 1);
      gate.open();
      await().until(() -> persistentDepth(app) == 0 && inFlight(app) == 0);

      assertThat(received).hasSize(1);
      assertThat(discarded(app, "receiver")).isEqualTo(MESSAGES - 1);
      assertThat(outcome(app, "discarded")).isEqualTo(MESSAGES - 1);
      assertThat(outcome(app, "refused")).isZero();
      assertThat(
              app.meterRegistry()
                  .get("sluice.queue.outcomes")
                  .tag("queue", VmPersistence.durableName("q"))
                  .tag("outcome", "acked")
                  .counter()
                  .count())
          .isEqualTo(MESSAGES);
    }
  }

  private void runInMemory(ProcessingStrategy strategy, String stage) throws Exception {
    Flow worker =
        Flow.builder("in")
            .source(new VmListenerSource("q", 2))
            .strategy(strategy)
            .processor(gate)
            .processor(record)
            .build();
    try (Application app = Application.builder().flow(worker).build()) {
      app.start();
      VmQueue queue = app.vmQueues().queue("q");
      for (int i = 0; i < MESSAGES; i++) {
        assertThat(queue.offer(new VmQueue.Entry(Message.of(i), null), Duration.ofSeconds(5)))
            .isTrue();
      }
      await().until(() -> gate.holding() == 1 && discarded(app, stage) == MESSAGES - 1);
      gate.open();
      await().until(() -> queue.size() == 0 && inFlight(app) == 0);

      assertThat(received).as("only the message the flow took").hasSize(1);
      assertThat(discarded(app, stage)).isEqualTo(MESSAGES - 1);
      assertThat(outcome(app, "discarded")).isEqualTo(MESSAGES - 1);
      assertThat(outcome(app, "refused")).isZero();
    }
  }

  private static double discarded(Application app, String stage) {
    return Meters.stage(app, "sluice.stage.discarded", "in", stage);
  }

  private static double outcome(Application app, String outcome) {
    return Meters.outcome(app, "in", outcome);
  }

  private static double inFlight(Application app) {
    return app.meterRegistry().get("sluice.flow.inflight").tag("flow", "in").gauge().value();
  }

  private static double persistentDepth(Application app) {
    return app.meterRegistry()
        .get("sluice.queue.depth")
        .tag("queue", VmPersistence.durableName("q"))
        .gauge()
        .value();
  }
}
