package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StagesAndFlowsPublishTheirMetricsTest {

  private static final Duration SECONDS_30 = Duration.ofSeconds(30);

  private static final List<String> STAGE_METERS =
      List.of(
          "sluice.stage.active",
          "sluice.stage.queued",
          "sluice.stage.limit",
          "sluice.stage.completed",
          "sluice.stage.rejected");

  static List<Arguments> stagesByStrategy() {
    ThreadingProfile p = Profiles.threads(2);
    return List.of(
        Arguments.of(new ProcessingStrategy.Synchronous(p), List.of("receiver", "async")),
        Arguments.of(
            new ProcessingStrategy.Staged(p, p, p),
            List.of("receiver", "flow", "dispatcher", "async")),
        Arguments.of(ProcessingStrategy.defaultStrategy(), List.of("auto")));
  }

  @ParameterizedTest
  @MethodSource("stagesByStrategy")
  void everyStageExposesItsMetersTaggedWithFlowAndStage(
      ProcessingStrategy strategy, List<String> stages) throws Exception {
    Flow flow = Flow.builder("metered").strategy(strategy).processor(Gate.blocking()).build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      MeterRegistry registry = app.meterRegistry();
      for (String stage : stages) {
        for (String name : STAGE_METERS) {
          RequiredSearch search = registry.get(name).tag("flow", "metered").tag("stage", stage);
          assertThat(search.meters()).as("%s of stage %s", name, stage).hasSize(1);
        }
      }
      assertThat(
              registry
                  .get("sluice.stage.limit")
                  .tag("flow", "metered")
                  .tag("stage", stages.getFirst())
                  .gauge()
                  .value())
          .isEqualTo(strategy instanceof ProcessingStrategy.Auto a ? a.initialLimit() : 2);
    }
  }

  @Test
  void theAutoStageCountsActiveAndCompletedBlockingCalls() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow = Flow.builder("metered").processor(gate).build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      MeterRegistry registry = app.meterRegistry();
      CompletableFuture<Message> a = app.send("metered", Message.of(1));
      CompletableFuture<Message> b = app.send("metered", Message.of(2));
      await().until(() -> stage(registry, "sluice.stage.active").gauge().value() == 2);
      gate.open();
      CompletableFuture.allOf(a, b).get(10, TimeUnit.SECONDS);
      assertThat(stage(registry, "sluice.stage.completed").functionCounter().count()).isEqualTo(2);
      assertThat(stage(registry, "sluice.stage.active").gauge().value()).isZero();
    }
  }

  @Test
  void theAutoStageShowsTheCeilingARefusalLeft() throws Exception {
    Flow flow =
        Flow.builder("metered")
            .strategy(new ProcessingStrategy.Auto(100, ExhaustedAction.WAIT, SECONDS_30, 1, 100))
            .processor(
                Processor.of(
                    ProcessingType.BLOCKING_IO,
                    m -> {
                      if (m.payload().equals("refused")) {
                        throw new ThrottledException("429 from the service");
                      }
                      return m;
                    }))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      MeterRegistry registry = app.meterRegistry();
      app.send("metered", Message.of("fine")).get(10, TimeUnit.SECONDS);
      assertThat(stage(registry, "sluice.stage.ceiling").gauge().value()).isNaN();

      // One call in flight under a limit of 1 (and 2 after the first success), refused.
      app.send("metered", Message.of("refused")).handle((m, e) -> e).get(10, TimeUnit.SECONDS);

      assertThat(stage(registry, "sluice.stage.throttled").functionCounter().count()).isEqualTo(1);
      assertThat(stage(registry, "sluice.stage.ceiling").gauge().value()).isEqualTo(1);
    }
  }

  @Test
  void flowsCountMessagesByOutcomeAndShowWhatIsInFlight() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow =
        Flow.builder("metered")
            .strategy(
                new ProcessingStrategy.Synchronous(Profiles.oneThread(0, ExhaustedAction.REJECT)))
            .processor(gate)
            .processor(
                m -> {
                  if (m.payload().equals("bad")) {
                    throw new IllegalArgumentException("bad");
                  }
                  return m;
                })
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      MeterRegistry registry = app.meterRegistry();
      CompletableFuture<Message> held = app.send("metered", Message.of("bad"));
      await().until(() -> gate.holding() == 1);
      assertThat(registry.get("sluice.flow.inflight").tag("flow", "metered").gauge().value())
          .isEqualTo(1);
      app.send("metered", Message.of("refused"));
      gate.open();
      held.handle((m, e) -> m).get(10, TimeUnit.SECONDS);
      // Its one thread is free once the flow let go of the first message, a moment after its
      // caller heard: sent before, the next is refused.
      await()
          .until(
              () ->
                  registry.get("sluice.flow.inflight").tag("flow", "metered").gauge().value() == 0);
      app.send("metered", Message.of("good")).get(10, TimeUnit.SECONDS);

      // A caller hears of its result a moment before the flow counts it.
      await()
          .untilAsserted(
              () -> {
                assertThat(outcome(registry, "completed")).isEqualTo(1);
                assertThat(outcome(registry, "failed")).isEqualTo(1);
                assertThat(outcome(registry, "refused")).isEqualTo(1);
                assertThat(duration(registry, "completed").count()).isLessThanOrEqualTo(1);
                assertThat(duration(registry, "failed").count()).isLessThanOrEqualTo(1);
                assertThat(
                        registry.get("sluice.flow.inflight").tag("flow", "metered").gauge().value())
                    .isZero();
              });
    }
  }

  private static RequiredSearch stage(MeterRegistry registry, String name) {
    return registry.get(name).tag("flow", "metered").tag("stage", "auto");
  }

  @Test
  void aRandomSixteenthOfTheMessagesIsTimed() throws Exception {
    Flow flow = Flow.builder("metered").processor(m -> m).build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      for (int i = 0; i < 3_200; i++) {
        app.send("metered", Message.of(i)).get(10, TimeUnit.SECONDS);
      }
      MeterRegistry registry = app.meterRegistry();
      await().untilAsserted(() -> assertThat(outcome(registry, "completed")).isEqualTo(3_200));
      // 200 expected; a binomial of 3,200 draws of 1/16 stays within 120 and 280 but once in
      // about ten million runs.
      assertThat(duration(registry, "completed").count()).isBetween(120L, 280L);
      assertThat(duration(registry, "completed").max(TimeUnit.NANOSECONDS)).isPositive();
    }
  }

  private static io.micrometer.core.instrument.Timer duration(
      MeterRegistry registry, String outcome) {
    return registry
        .get("sluice.flow.duration")
        .tag("flow", "metered")
        .tag("outcome", outcome)
        .timer();
  }

  private static double outcome(MeterRegistry registry, String outcome) {
    return registry
        .get("sluice.flow.messages")
        .tag("flow", "metered")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  @SuppressWarnings("unused")
  private static String describe(List<Meter> meters) {
    return meters.stream().map(m -> m.getId().toString()).toList().toString();
  }
}
