package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.testing.SluiceThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GracefulStopWaitsForMessagesInFlightTest {

  static List<ProcessingStrategy> strategies() {
    return StrategiesCarryMessagesTest.strategies();
  }

  private final Gate gate = Gate.blocking();

  private Application start(ProcessingStrategy strategy, Duration shutdownTimeout) {
    Flow flow =
        Flow.builder("stopping")
            .strategy(strategy)
            .processor(gate)
            .sink(m -> m.withVariable("sunk", true))
            .build();
    Application app = Application.builder().flow(flow).shutdownTimeout(shutdownTimeout).build();
    app.start();
    return app;
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void stopReturnsTrueOnceEveryMessageInFlightHasFinished(ProcessingStrategy strategy)
      throws Exception {
    Application app = start(strategy, Duration.ofSeconds(10));
    List<CompletableFuture<Message>> results =
        IntStream.range(0, 4).mapToObj(i -> app.send("stopping", Message.of(i))).toList();
    await().until(() -> gate.holding() == 4);

    CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(app::stop);
    await().during(Duration.ofMillis(200)).until(() -> !stopped.isDone());
    Thread.ofPlatform().start(gate::open);

    assertThat(stopped.get(10, TimeUnit.SECONDS)).isTrue();
    for (CompletableFuture<Message> result : results) {
      assertThat(result).isCompleted();
      assertThat(result.get().variable("sunk")).isEqualTo(true);
    }
    SluiceThreads.assertNoneAlive("sluice-stopping-");
    SluiceThreads.assertNoneAlive("sluice-cpu-");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void stopReturnsFalseWhenMessagesOutlastTheShutdownTimeout(ProcessingStrategy strategy) {
    Application app = start(strategy, Duration.ofMillis(300));
    try {
      app.send("stopping", Message.of(1));
      await().until(() -> gate.holding() == 1);
      long start = System.nanoTime();
      assertThat(app.stop()).isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isBetween(Duration.ofMillis(300), Duration.ofSeconds(5));
      SluiceThreads.assertNoneAlive("sluice-stopping-");
    } finally {
      gate.open();
    }
  }

  @org.junit.jupiter.api.Test
  void autoInterruptsBlockingWorkThatOutlastsTheShutdownTimeout() {
    Application app = start(ProcessingStrategy.defaultStrategy(), Duration.ofMillis(300));
    CompletableFuture<Message> result = app.send("stopping", Message.of(1));
    await().until(() -> gate.holding() == 1);

    assertThat(app.stop()).isFalse();

    await().atMost(Duration.ofSeconds(5)).until(result::isDone);
    assertThat(result.exceptionNow()).isInstanceOf(InterruptedException.class);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aStoppedFlowRefusesNewMessages(ProcessingStrategy strategy) {
    Application app = start(strategy, Duration.ofSeconds(1));
    gate.open();
    assertThat(app.stop()).isTrue();
    CompletableFuture<Message> late = app.send("stopping", Message.of(1));
    assertThat(late).isCompletedExceptionally();
    assertThat(late.exceptionNow())
        .isInstanceOfSatisfying(
            FlowBusyException.class,
            busy -> assertThat(busy.reason()).isEqualTo(FlowBusyException.Reason.NOT_RUNNING))
        .hasMessageContaining("start the application (or the flow) first")
        .hasMessageNotContaining("maxThreadsActive")
        .hasMessageNotContaining("maxInFlight");
  }
}
