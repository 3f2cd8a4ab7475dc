package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stop that outlasts its timeout interrupts what runs and drops what still waits in a stage's
 * queue; the waiting messages must end (refused), not hang with their futures never completed.
 */
class StopPastItsTimeoutEndsQueuedMessagesTest {

  private final Gate gate = Gate.blocking();

  @ParameterizedTest(name = "staged: {0}")
  @ValueSource(booleans = {false, true})
  void aMessageStillQueuedWhenTheTimeoutRunsOutIsRefused(boolean staged) {
    ThreadingProfile one = Profiles.oneThread(10, ExhaustedAction.WAIT);
    ProcessingStrategy strategy =
        staged
            ? new ProcessingStrategy.Staged(one, one, one)
            : new ProcessingStrategy.Synchronous(one);
    Flow flow = Flow.builder("queued").strategy(strategy).processor(gate).build();
    Application app =
        Application.builder().flow(flow).shutdownTimeout(Duration.ofMillis(200)).build();
    app.start();
    try {
      CompletableFuture<Message> held = app.send("queued", Message.of("held"));
      await().until(() -> gate.holding() == 1);
      CompletableFuture<Message> queued = app.send("queued", Message.of("queued"));

      assertThat(app.stop()).isFalse();

      // The held one is interrupted and ends on its own thread, the queued one ends at once.
      await().until(held::isCompletedExceptionally);
      assertThat(queued).as("the queued message's future").isCompletedExceptionally();
      assertThat(queued.exceptionNow()).isInstanceOf(FlowBusyException.class);
    } finally {
      gate.open();
    }
  }
}
