package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StoredMessage;
import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Persistent VM queues and persistent staged flows keep what they accepted in the application's
 * storage. The storage here is the in-memory one, shared by two applications in turn as a restarted
 * process shares its database file; the SQLite crash tests (sluice-jdbc) kill real processes.
 */
class PersistentQueuesKeepWhatFlowsAcceptedTest {

  private final Storage storage = new MemoryStorage(Clock.systemUTC());
  private final List<Object> received = new CopyOnWriteArrayList<>();
  private final List<Integer> deliveryCounts = new CopyOnWriteArrayList<>();

  private final Processor record =
      Processor.of(
          ProcessingType.CPU_LITE,
          message -> {
            received.add(message.payload());
            Object count = message.attributes().get("deliveryCount");
            if (count != null) {
              deliveryCounts.add((Integer) count);
            }
            return message;
          });

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  private static final VmPersistence QUICK_REDELIVERY =
      new VmPersistence(
          QueueOptions.DEFAULTS.withMaxDeliveries(3),
          Duration.ZERO,
          VmPersistence.DEFAULT_MAX_OUTSTANDING);

  private static Flow publisher() {
    return Flow.builder("out")
        .processor(new VmPublishProcessor("work", false, Duration.ofSeconds(10), true))
        .build();
  }

  private Flow worker(Processor... more) {
    Flow.Builder flow =
        Flow.builder("worker")
            .source(new VmListenerSource("work", 1, QUICK_REDELIVERY))
            .processor(record);
    for (Processor p : more) {
      flow.processor(p);
    }
    return flow.build();
  }

  private Application start(Flow... flows) {
    Application.Builder builder = Application.builder().storage(storage);
    for (Flow flow : flows) {
      builder.flow(flow);
    }
    Application app = builder.build();
    app.start();
    return app;
  }

  private DurableQueue queue(String name) {
    return storage.queue(name, QueueOptions.DEFAULTS);
  }

  @Test
  void aPersistentPublishIsDeliveredInOrderAndAcknowledged() throws Exception {
    try (Application app = start(publisher(), worker())) {
      for (int i = 0; i < 200; i++) {
        app.send("out", Message.of(i).withVariable("n", i)).get(10, TimeUnit.SECONDS);
      }
      await().until(() -> received.size() == 200);
      assertThat(received).containsExactlyElementsOf(IntStream.range(0, 200).boxed().toList());
      await().until(() -> queue(VmPersistence.durableName("work")).size() == 0);
      assertThat(deliveryCounts).containsOnly(1);
    }
  }

  @Test
  void messagesPublishedWhileNoListenerRunsAreDeliveredWhenOneStarts() throws Exception {
    try (Application app = start(publisher())) {
      for (int i = 0; i < 50; i++) {
        app.send("out", Message.of("m" + i)).get(10, TimeUnit.SECONDS);
      }
    }
    assertThat(queue(VmPersistence.durableName("work")).size()).isEqualTo(50);
    try (Application restarted = start(worker())) {
      await().until(() -> received.size() == 50);
      assertThat(received.getFirst()).isEqualTo("m0");
      assertThat(received.getLast()).isEqualTo("m49");
    }
  }

  @Test
  void aMessageWhoseFlowFailsIsDeliveredAgainThenDeadLettered() {
    Processor failOnPoison =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              if ("poison".equals(message.payload())) {
                throw new IllegalStateException("cannot digest");
              }
              return message;
            });
    try (Application app = start(publisher(), worker(failOnPoison))) {
      app.send("out", Message.of("poison")).join();
      app.send("out", Message.of("fine")).join();
      DurableQueue work = queue(VmPersistence.durableName("work"));
      await().until(() -> work.deadLetterCount() == 1 && work.size() == 0);
      assertThat(received.stream().filter("poison"::equals)).hasSize(3);
      assertThat(received).containsOnlyOnce("fine");
      var registry = app.meterRegistry();
      String name = VmPersistence.durableName("work");
      await()
          .untilAsserted(
              () -> {
                assertThat(outcomes(registry, name, "nacked")).isEqualTo(3);
                assertThat(outcomes(registry, name, "acked")).isEqualTo(1);
              });
      assertThat(registry.get("sluice.queue.dead").tag("queue", name).gauge().value()).isEqualTo(1);
      assertThat(registry.get("sluice.queue.depth").tag("queue", name).gauge().value()).isZero();
      assertThat(work.deadLetters(10))
          .singleElement()
          .satisfies(d -> assertThat(((StoredMessage) d.payload()).payload()).isEqualTo("poison"));
    }
  }

  private static double outcomes(
      io.micrometer.core.instrument.MeterRegistry registry, String queue, String outcome) {
    return registry
        .get("sluice.queue.outcomes")
        .tag("queue", queue)
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @Test
  void aPersistentQueueRefusesRequestReply() {
    assertThatThrownBy(() -> new VmPublishProcessor("work", true, Duration.ofSeconds(1), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("persistent queue is one-way");
  }

  private static Flow persistentStaged(Processor... processors) {
    ThreadingProfile profile = ThreadingProfile.builder().maxThreadsActive(2).maxQueue(10).build();
    Flow.Builder flow =
        Flow.builder("orders")
            .strategy(new ProcessingStrategy.Staged(profile, profile, profile, true));
    for (Processor p : processors) {
      flow.processor(p);
    }
    return flow.build();
  }

  @Test
  void aPersistentStagedFlowAnswersItsSenderAndKeepsNothingOnceDone() throws Exception {
    try (Application app =
        start(persistentStaged(record, m -> m.withPayload("done " + m.payload())))) {
      List<CompletableFuture<Message>> results =
          IntStream.range(0, 100).mapToObj(i -> app.send("orders", Message.of(i))).toList();
      for (int i = 0; i < 100; i++) {
        assertThat(results.get(i).get(10, TimeUnit.SECONDS).payload()).isEqualTo("done " + i);
      }
      DurableQueue kept = queue(ProcessingStrategy.Staged.durableName("orders"));
      await().until(() -> kept.size() == 0);
    }
    assertThat(received).hasSize(100);
  }

  @Test
  void aPersistentStagedFlowProcessesWhatAnEarlierRunAccepted() {
    DurableQueue kept = queue(ProcessingStrategy.Staged.durableName("orders"));
    kept.enqueueAll(
        List.of(
            new StoredMessage("left-1", Map.of("fileName", "a.csv"), Map.of()),
            new StoredMessage("left-2", Map.of(), Map.of("v", 2))));
    try (Application app = start(persistentStaged(record))) {
      await().until(() -> received.size() == 2 && kept.size() == 0);
      assertThat(received).containsExactlyInAnyOrder("left-1", "left-2");
    }
  }

  @Test
  void aPersistentStagedFlowThatFailsAMessageEndsItOnceAndTellsTheSender() {
    Processor failing =
        Processor.of(
            ProcessingType.CPU_LITE,
            message -> {
              throw new IllegalStateException("rejected order");
            });
    try (Application app = start(persistentStaged(record, failing))) {
      assertThatThrownBy(() -> app.send("orders", Message.of("bad")).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasRootCauseMessage("rejected order");
      DurableQueue kept = queue(ProcessingStrategy.Staged.durableName("orders"));
      await().until(() -> kept.size() == 0);
      assertThat(received).containsExactly("bad");
      assertThat(kept.deadLetterCount()).isZero();
    }
  }
}
