package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * DISCARD_OLDEST (Mule's poolExhaustedAction): a full stage drops the message that waited longest
 * in its queue and takes the new one in its place. The dropped message ends as a DISCARD does:
 * counted, its sender told with a {@link MessageDiscardedException}, a queue listener's entry ended
 * (dropped in memory, acknowledged when persistent), never delivered again.
 */
class DiscardOldestDropsTheMessageThatWaitedLongestTest {

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

  private static ThreadingProfile oneThreadQueueing(int queue) {
    return Profiles.oneThread(queue, ExhaustedAction.DISCARD_OLDEST);
  }

  @Test
  void aFullQueueDropsItsOldestMessageCountsItAndTakesTheNewOne() throws Exception {
    Flow flow =
        Flow.builder("full")
            .strategy(new ProcessingStrategy.Synchronous(oneThreadQueueing(2)))
            .processor(gate)
            .processor(record)
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      CompletableFuture<Message> first = app.send("full", Message.of("first"));
      await().until(() -> gate.holding() == 1);
      CompletableFuture<Message> oldest = app.send("full", Message.of("oldest"));
      CompletableFuture<Message> older = app.send("full", Message.of("older"));
      assertThat(oldest).isNotDone();

      CompletableFuture<Message> late = app.send("full", Message.of("late"));

      assertThatThrownBy(oldest::join)
          .cause()
          .isInstanceOfSatisfying(
              MessageDiscardedException.class,
              discarded -> {
                assertThat(discarded.flow()).isEqualTo("full");
                assertThat(discarded.stage()).isEqualTo("receiver");
                assertThat(discarded.getMessage())
                    .contains("DISCARD_OLDEST")
                    .contains("waited longest");
              });
      assertThat(late).isNotDone();
      assertThat(Meters.stage(app, "sluice.stage.discarded", "full", "receiver")).isEqualTo(1);
      assertThat(Meters.outcome(app, "full", "discarded")).isEqualTo(1);

      gate.open();
      for (CompletableFuture<Message> kept : List.of(first, older, late)) {
        kept.get(10, TimeUnit.SECONDS);
      }
      assertThat(received).containsExactly("first", "older", "late");
      // A sender hears of its result a moment before the flow counts it.
      await().until(() -> Meters.outcome(app, "full", "completed") == 3);
      assertThat(Meters.outcome(app, "full", "refused")).isZero();
      assertThat(Meters.stage(app, "sluice.stage.rejected", "full", "receiver")).isZero();
    }
  }

  @Test
  void anInMemoryListenerDropsTheEntriesItsFlowDiscardedInsteadOfDeliveringThemAgain()
      throws Exception {
    Flow worker =
        Flow.builder("in")
            .source(new VmListenerSource("q", 2))
            .strategy(new ProcessingStrategy.Synchronous(oneThreadQueueing(1)))
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
      // One held at the gate, one waiting in the stage's queue: each later one drops the waiting.
      await().until(() -> gate.holding() == 1 && discarded(app) == MESSAGES - 2);
      gate.open();
      await().until(() -> queue.size() == 0 && inFlight(app) == 0);

      assertThat(received).as("the one held and the one waiting last").hasSize(2);
      assertThat(discarded(app)).isEqualTo(MESSAGES - 2);
      assertThat(Meters.outcome(app, "in", "discarded")).isEqualTo(MESSAGES - 2);
      assertThat(Meters.outcome(app, "in", "refused")).isZero();
    }
  }

  @Test
  void aPersistentListenerAcknowledgesTheEntriesItsFlowDiscarded() throws Exception {
    VmPersistence persistence = new VmPersistence(QueueOptions.DEFAULTS, Duration.ZERO, 64);
    Flow worker =
        Flow.builder("in")
            .source(new VmListenerSource("q", 2, persistence))
            .strategy(new ProcessingStrategy.Synchronous(oneThreadQueueing(1)))
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
      await().until(() -> gate.holding() == 1 && discarded(app) == MESSAGES - 2);
      gate.open();
      await().until(() -> persistentDepth(app) == 0 && inFlight(app) == 0);

      assertThat(received).as("the one held and the one waiting last").hasSize(2);
      assertThat(Meters.outcome(app, "in", "discarded")).isEqualTo(MESSAGES - 2);
      assertThat(Meters.outcome(app, "in", "refused")).isZero();
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

  @Test
  void aProfileWithoutAQueueHasNoOldestToDropAndIsRefused() {
    assertThatThrownBy(() -> oneThreadQueueing(0))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.path()).isEqualTo("exhaustedAction");
                          assertThat(p.rule()).contains("needs a queue").contains("maxQueue");
                        }));
  }

  @Test
  void autoHasNoQueueToDropFromAndRefusesItAsBackpressure() {
    assertThatThrownBy(
            () ->
                new ProcessingStrategy.Auto(
                    10, ExhaustedAction.DISCARD_OLDEST, Duration.ofSeconds(1), 4, 4))
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(p -> assertThat(p.path()).isEqualTo("backpressure")));
  }

  private static double discarded(Application app) {
    return Meters.stage(app, "sluice.stage.discarded", "in", "receiver");
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
