package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A synchronous flow with one receiver thread, its queue full: each exhausted action. */
class FullStageAppliesItsExhaustedActionTest {

  private final Gate gate = Gate.blocking();
  private final ThreadRecorder after =
      new ThreadRecorder("after", io.sluice.core.spi.ProcessingType.CPU_LITE);

  private Application app(ExhaustedAction action, int queue) {
    Flow flow =
        Flow.builder("full")
            .strategy(new ProcessingStrategy.Synchronous(Profiles.oneThread(queue, action)))
            .processor(gate)
            .processor(after)
            .build();
    Application app = Application.builder().flow(flow).build();
    app.start();
    return app;
  }

  /** Occupies the thread (and the queue slot, if any) with messages held at the gate. */
  private CompletableFuture<?> fill(Application app, int queue) {
    CompletableFuture<Message> first = app.send("full", Message.of("first"));
    await().until(() -> gate.holding() == 1);
    CompletableFuture<?> all = first;
    for (int i = 0; i < queue; i++) {
      all = CompletableFuture.allOf(all, app.send("full", Message.of("queued")));
    }
    return all;
  }

  @ParameterizedTest(name = "queue of {0}")
  @ValueSource(ints = {0, 1})
  void waitBlocksTheSubmitterUntilRoomFreesThenTheMessageGoesThrough(int queue) throws Exception {
    try (Application app = app(ExhaustedAction.WAIT, queue)) {
      CompletableFuture<?> earlier = fill(app, queue);
      AtomicReference<CompletableFuture<Message>> waiting = new AtomicReference<>();
      Thread submitter =
          Thread.ofPlatform().start(() -> waiting.set(app.send("full", Message.of("late"))));
      await().until(() -> submitter.getState() == Thread.State.TIMED_WAITING);
      assertThat(waiting.get()).as("submit returned while the stage was full").isNull();

      gate.open();
      submitter.join(10_000);
      assertThat(waiting.get().get(10, TimeUnit.SECONDS).payload()).isEqualTo("late");
      earlier.get(10, TimeUnit.SECONDS);
      assertThat(counter(app, "sluice.stage.rejected")).isZero();
    }
  }

  @Test
  void waitRefusesWithFlowBusyOnceTheWaitTimeoutHasPassed() throws Exception {
    try (Application app = app(ExhaustedAction.WAIT, 1)) {
      fill(app, 1);
      long start = System.nanoTime();
      CompletableFuture<Message> late = app.send("full", Message.of("late"));
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(300);
      assertFlowBusy(late, "receiver");
      assertThat(late.exceptionNow())
          .hasMessageContaining("waited PT0.3S")
          .hasMessageContaining("or its waitTimeout (Mule's threadWaitTimeout)");
      assertThat(((FlowBusyException) late.exceptionNow()).reason())
          .isEqualTo(FlowBusyException.Reason.WAIT_TIMED_OUT);
      assertThat(counter(app, "sluice.stage.rejected")).isEqualTo(1);
      gate.open();
    }
  }

  @Test
  void rejectFailsTheMessageWithFlowBusyAtOnce() throws Exception {
    try (Application app = app(ExhaustedAction.REJECT, 0)) {
      fill(app, 0);
      CompletableFuture<Message> late = app.send("full", Message.of("late"));
      assertThat(late).isCompletedExceptionally();
      assertFlowBusy(late, "receiver");
      assertThat(late.exceptionNow())
          .hasMessageContaining("Raise the stage's maxThreadsActive or maxQueue")
          .hasMessageContaining("choose exhaustedAction WAIT");
      assertThat(counter(app, "sluice.stage.rejected")).isEqualTo(1);
      assertThat(outcome(app, "refused")).isEqualTo(1);
      gate.open();
    }
  }

  @Test
  void callerRunsRunsTheMessageOnTheSubmittingThread() throws Exception {
    try (Application app = app(ExhaustedAction.CALLER_RUNS, 1)) {
      CompletableFuture<?> earlier = fill(app, 1);
      AtomicReference<CompletableFuture<Message>> late = new AtomicReference<>();
      Thread submitter =
          Thread.ofPlatform()
              .name("submitter")
              .start(() -> late.set(app.send("full", Message.of("late"))));
      await().until(() -> gate.holding() == 2);
      assertThat(gate.threads()).last().isSameAs(submitter);

      gate.open();
      submitter.join(10_000);
      assertThat(late.get().get(10, TimeUnit.SECONDS).variable("after")).isEqualTo("submitter");
      earlier.get(10, TimeUnit.SECONDS);
      assertThat(counter(app, "sluice.stage.caller.runs")).isEqualTo(1);
    }
  }

  @Test
  void discardFailsTheMessageAsDiscardedAndCountsIt() throws Exception {
    try (Application app = app(ExhaustedAction.DISCARD, 1)) {
      fill(app, 1);
      CompletableFuture<Message> late = app.send("full", Message.of("late"));
      assertFlowBusy(late, "receiver");
      assertThatThrownBy(late::join).cause().isInstanceOf(MessageDiscardedException.class);
      assertThat(counter(app, "sluice.stage.discarded")).isEqualTo(1);
      assertThat(outcome(app, "discarded")).isEqualTo(1);
      assertThat(outcome(app, "refused")).isZero();
      gate.open();
    }
  }

  private static void assertFlowBusy(CompletableFuture<Message> result, String stage) {
    assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            FlowBusyException.class,
            busy -> {
              assertThat(busy.flow()).isEqualTo("full");
              assertThat(busy.stage()).isEqualTo(stage);
            });
  }

  private static double outcome(Application app, String outcome) {
    return Meters.outcome(app, "full", outcome);
  }

  private static double counter(Application app, String name) {
    return Meters.stage(app, name, "full", "receiver");
  }
}
