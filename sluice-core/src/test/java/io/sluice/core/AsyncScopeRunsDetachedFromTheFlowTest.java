package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.processor.AsyncScope;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AsyncScopeRunsDetachedFromTheFlowTest {

  static List<ProcessingStrategy> strategies() {
    return StrategiesCarryMessagesTest.strategies();
  }

  private static Application start(ProcessingStrategy strategy, Processor... inScope) {
    Flow flow =
        Flow.builder("async")
            .strategy(strategy)
            .processor(new AsyncScope(List.of(inScope)))
            .processor(m -> m.withVariable("after", true))
            .build();
    Application app = Application.builder().flow(flow).build();
    app.start();
    return app;
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void theFlowGoesOnWithoutWaitingAndKeepsItsOwnMessage(ProcessingStrategy strategy)
      throws Exception {
    Gate gate = Gate.blocking();
    AtomicReference<Message> seen = new AtomicReference<>();
    Processor changeCopy =
        m -> {
          seen.set(m);
          return m.withPayload("changed by the scope").withVariable("scope", true);
        };
    try (Application app = start(strategy, gate, changeCopy)) {
      Message out = app.send("async", Message.of("in")).get(10, TimeUnit.SECONDS);
      await().until(() -> gate.holding() == 1); // the scope runs, and is held, after the flow ended
      assertThat(out.payload()).isEqualTo("in");
      assertThat(out.variable("after")).isEqualTo(true);

      gate.open();
      await().until(() -> seen.get() != null);
      assertThat(seen.get().payload()).isEqualTo("in");
      assertThat(seen.get().variable("after")).as("the scope's copy is not the flow's").isNull();
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anErrorInTheScopeIsNotSeenByTheFlow(ProcessingStrategy strategy) throws Exception {
    AtomicBoolean failed = new AtomicBoolean();
    Processor failing =
        m -> {
          failed.set(true);
          throw new IllegalStateException("scope broke");
        };
    try (Application app = start(strategy, failing)) {
      Message out = app.send("async", Message.of("in")).get(10, TimeUnit.SECONDS);
      assertThat(out.variable("after")).isEqualTo(true);
      await().untilTrue(failed);
      await()
          .until(
              () ->
                  app.meterRegistry()
                          .get("sluice.flow.messages")
                          .tag("outcome", "failed")
                          .counter()
                          .count()
                      == 1);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void anErrorInTheScopeDoesNotRunTheFlowsErrorHandler(ProcessingStrategy strategy)
      throws Exception {
    AtomicBoolean handled = new AtomicBoolean();
    Processor failing =
        m -> {
          throw new IllegalStateException("scope broke");
        };
    Flow flow =
        Flow.builder("async")
            .strategy(strategy)
            .processor(new AsyncScope(List.of(failing)))
            .onError(
                new OnError.Continue(
                    List.of(),
                    null,
                    List.of(
                        m -> {
                          handled.set(true);
                          return m;
                        })))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      app.send("async", Message.of("in")).get(10, TimeUnit.SECONDS);
      // The flow's message and the scope's copy both end; only then is the handler's run known.
      await()
          .until(
              () ->
                  app.meterRegistry().get("sluice.flow.messages").counters().stream()
                          .mapToDouble(c -> c.count())
                          .sum()
                      == 2);
      assertThat(handled).as("the flow's error handler ran for the scope's error").isFalse();
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void stopWaitsForWorkStillRunningInTheScope(ProcessingStrategy strategy) throws Exception {
    Gate gate = Gate.blocking();
    Application app = start(strategy, gate);
    app.send("async", Message.of("in")).get(10, TimeUnit.SECONDS);
    await().until(() -> gate.holding() == 1);

    CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(app::stop);
    await().during(java.time.Duration.ofMillis(200)).until(() -> !stopped.isDone());
    gate.open();
    assertThat(stopped.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(gate.holding()).isZero();
  }
}
