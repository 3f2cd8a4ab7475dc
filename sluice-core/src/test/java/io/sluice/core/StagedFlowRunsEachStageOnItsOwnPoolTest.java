package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StagedFlowRunsEachStageOnItsOwnPoolTest {

  private static Application start(Flow flow) {
    Application app = Application.builder().flow(flow).build();
    app.start();
    return app;
  }

  @Test
  void processorsRunOnFlowThreadsAndSinksOnDispatcherThreadsAfterTheReceiver() throws Exception {
    ThreadRecorder lite = new ThreadRecorder("lite", ProcessingType.CPU_LITE);
    ThreadRecorder io = new ThreadRecorder("io", ProcessingType.BLOCKING_IO);
    ThreadRecorder sink1 = new ThreadRecorder("sink1", ProcessingType.CPU_LITE);
    ThreadRecorder sink2 = new ThreadRecorder("sink2", ProcessingType.BLOCKING_IO);
    ThreadingProfile two = Profiles.threads(2);
    Flow flow =
        Flow.builder("st")
            .strategy(new ProcessingStrategy.Staged(two, two, two))
            .processor(lite)
            .processor(io)
            .sink(sink1)
            .sink(sink2)
            .build();
    try (Application app = start(flow)) {
      for (int i = 0; i < 10; i++) {
        Message out = app.send("st", Message.of(i)).get(10, TimeUnit.SECONDS);
        assertThat((String) out.variable("lite")).matches("sluice-st-flow-\\d+");
        assertThat(out.variable("io")).isEqualTo(out.variable("lite"));
        assertThat((String) out.variable("sink1")).matches("sluice-st-dispatcher-\\d+");
        assertThat(out.variable("sink2")).isEqualTo(out.variable("sink1"));
      }
      // The receiver's thread counts its task done a moment after it handed the message on.
      await()
          .untilAsserted(
              () ->
                  assertThat(
                          app.meterRegistry()
                              .get("sluice.stage.completed")
                              .tag("flow", "st")
                              .tag("stage", "receiver")
                              .functionCounter()
                              .count())
                      .isEqualTo(10));
    }
  }

  @Test
  void theFlowStageRunsAtMostItsOwnMaxThreadsActive() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow =
        Flow.builder("st")
            .strategy(
                new ProcessingStrategy.Staged(
                    Profiles.threads(4), Profiles.threads(2), Profiles.threads(4)))
            .processor(gate)
            .build();
    try (Application app = start(flow)) {
      List<CompletableFuture<Message>> results =
          IntStream.range(0, 8).mapToObj(i -> app.send("st", Message.of(i))).toList();
      await().until(() -> gate.holding() == 2);
      await().until(() -> gauge(app, "flow", "sluice.stage.queued") == 6);
      assertThat(gauge(app, "flow", "sluice.stage.active")).isEqualTo(2);
      gate.open();
      for (CompletableFuture<Message> result : results) {
        result.get(10, TimeUnit.SECONDS);
      }
      assertThat(gate.maxHolding()).isEqualTo(2);
    }
  }

  @Test
  void theDispatcherStageRunsAtMostItsOwnMaxThreadsActive() throws Exception {
    Gate sink = Gate.blocking();
    Flow flow =
        Flow.builder("st")
            .strategy(
                new ProcessingStrategy.Staged(
                    Profiles.threads(4), Profiles.threads(4), Profiles.threads(1)))
            .processor(new ThreadRecorder("p", ProcessingType.CPU_LITE))
            .sink(sink)
            .build();
    try (Application app = start(flow)) {
      List<CompletableFuture<Message>> results =
          IntStream.range(0, 5).mapToObj(i -> app.send("st", Message.of(i))).toList();
      await().until(() -> sink.holding() == 1);
      await().until(() -> gauge(app, "dispatcher", "sluice.stage.queued") == 4);
      sink.open();
      for (CompletableFuture<Message> result : results) {
        result.get(10, TimeUnit.SECONDS);
      }
      assertThat(sink.maxHolding()).isEqualTo(1);
      assertThat(sink.threads()).allMatch(t -> t.getName().startsWith("sluice-st-dispatcher-"));
    }
  }

  @Test
  void aFullFlowStageAppliesItsOwnExhaustedAction() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow =
        Flow.builder("st")
            .strategy(
                new ProcessingStrategy.Staged(
                    Profiles.threads(4),
                    Profiles.oneThread(0, ExhaustedAction.REJECT),
                    Profiles.threads(4)))
            .processor(gate)
            .build();
    try (Application app = start(flow)) {
      CompletableFuture<Message> first = app.send("st", Message.of(1));
      await().until(() -> gate.holding() == 1);
      CompletableFuture<Message> second = app.send("st", Message.of(2));
      assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              FlowBusyException.class, busy -> assertThat(busy.stage()).isEqualTo("flow"));
      gate.open();
      assertThat(first.get(10, TimeUnit.SECONDS).payload()).isEqualTo(1);
    }
  }

  private static double gauge(Application app, String stage, String name) {
    return app.meterRegistry().get(name).tag("flow", "st").tag("stage", stage).gauge().value();
  }
}
