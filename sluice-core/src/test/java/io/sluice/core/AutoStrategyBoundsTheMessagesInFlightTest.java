package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AutoStrategyBoundsTheMessagesInFlightTest {

  private final Gate gate = Gate.blocking();

  private Application start(ExhaustedAction backpressure) {
    return start(3, backpressure);
  }

  private Application start(int maxInFlight, ExhaustedAction backpressure) {
    Flow flow =
        Flow.builder("bounded")
            .strategy(
                new ProcessingStrategy.Auto(
                    maxInFlight, backpressure, Duration.ofMillis(300), 16, 100))
            .processor(gate)
            .build();
    Application app = Application.builder().flow(flow).build();
    app.start();
    return app;
  }

  private List<CompletableFuture<Message>> fill(Application app) {
    List<CompletableFuture<Message>> held =
        IntStream.range(0, 3).mapToObj(i -> app.send("bounded", Message.of(i))).toList();
    await().until(() -> gate.holding() == 3);
    return held;
  }

  @Test
  void rejectRefusesTheMessagePastMaxInFlightAndAcceptsAgainOnceOneLeaves() throws Exception {
    try (Application app = start(ExhaustedAction.REJECT)) {
      List<CompletableFuture<Message>> held = fill(app);
      CompletableFuture<Message> fourth = app.send("bounded", Message.of(4));
      assertThat(fourth).isCompletedExceptionally();
      assertThatThrownBy(fourth::get)
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              FlowBusyException.class,
              busy -> {
                assertThat(busy.stage()).isEqualTo("auto");
                assertThat(busy.reason()).isEqualTo(FlowBusyException.Reason.IN_FLIGHT_LIMIT);
                assertThat(busy.getMessage())
                    .contains("maxInFlight 3")
                    .contains("Raise the flow's maxInFlight")
                    .doesNotContain("maxThreadsActive");
              });
      assertThat(
              app.meterRegistry()
                  .get("sluice.stage.rejected")
                  .tag("flow", "bounded")
                  .tag("stage", "auto")
                  .functionCounter()
                  .count())
          .isEqualTo(1);
      assertThat(
              app.meterRegistry()
                  .get("sluice.flow.inflight")
                  .tag("flow", "bounded")
                  .gauge()
                  .value())
          .isEqualTo(3);

      gate.open();
      for (CompletableFuture<Message> result : held) {
        result.get(10, TimeUnit.SECONDS);
      }
      assertThat(app.send("bounded", Message.of(5)).get(10, TimeUnit.SECONDS).payload())
          .isEqualTo(5);
      assertThat(gate.maxHolding()).isEqualTo(3);
    }
  }

  @Test
  void waitBlocksTheSourceUntilAMessageLeaves() throws Exception {
    try (Application app = start(ExhaustedAction.WAIT)) {
      List<CompletableFuture<Message>> held = fill(app);
      AtomicReference<CompletableFuture<Message>> fourth = new AtomicReference<>();
      Thread source =
          Thread.ofPlatform().start(() -> fourth.set(app.send("bounded", Message.of(4))));
      await().until(() -> source.getState() == Thread.State.TIMED_WAITING);
      gate.open();
      source.join(10_000);
      assertThat(fourth.get().get(10, TimeUnit.SECONDS).payload()).isEqualTo(4);
      for (CompletableFuture<Message> result : held) {
        result.get(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void waitRefusesOnceItsTimeoutHasPassed() throws Exception {
    try (Application app = start(ExhaustedAction.WAIT)) {
      fill(app);
      CompletableFuture<Message> fourth = app.send("bounded", Message.of(4));
      assertThatThrownBy(fourth::get)
          .cause()
          .isInstanceOfSatisfying(
              FlowBusyException.class,
              busy ->
                  assertThat(busy.getMessage())
                      .contains("Raise the flow's maxInFlight")
                      .doesNotContain("maxThreadsActive"));
      gate.open();
    }
  }

  @Test
  void aSourceHandedItsAnswerFindsRoomForItsNextMessageAtOnce() throws Exception {
    try (Application app = start(1, ExhaustedAction.REJECT)) {
      CompletableFuture<Message> first = app.send("bounded", Message.of(1));
      await().until(() -> gate.holding() == 1);
      // As an HTTP listener does: the answer goes out, and the client's next request may arrive
      // before the thread that finished the first message has returned.
      CompletableFuture<Message> next =
          first.thenCompose(done -> app.send("bounded", Message.of(2)));
      gate.open();
      assertThat(next.get(10, TimeUnit.SECONDS).payload()).isEqualTo(2);
    }
  }
}
