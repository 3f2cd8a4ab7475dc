package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Source;
import io.sluice.core.spi.SourceContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A source whose thread must never block (an event loop) offers its messages: a full flow refuses
 * at once where submit would wait or run the flow on the caller.
 */
class OfferedMessagesNeverHoldTheSourceTest {

  /** A source that only keeps its context, so the test can offer through it. */
  private static final class OfferingSource implements Source {
    volatile SourceContext context;

    @Override
    public void start(SourceContext context) {
      this.context = context;
    }

    @Override
    public void stop() {}
  }

  private final Gate gate = Gate.blocking();
  private final OfferingSource source = new OfferingSource();

  @ParameterizedTest
  @EnumSource(
      value = ExhaustedAction.class,
      names = {"WAIT", "CALLER_RUNS"})
  void aFullSynchronousFlowRefusesAnOfferAtOnce(ExhaustedAction action) throws Exception {
    ThreadingProfile profile =
        ThreadingProfile.builder()
            .maxThreadsActive(1)
            .maxQueue(0)
            .exhaustedAction(action)
            .waitTimeout(Duration.ofMinutes(1))
            .build();
    assertRefusedAtOnce(new ProcessingStrategy.Synchronous(profile), "receiver");
  }

  @ParameterizedTest
  @EnumSource(
      value = ExhaustedAction.class,
      names = {"WAIT"})
  void aFullAutoFlowRefusesAnOfferAtOnce(ExhaustedAction action) throws Exception {
    assertRefusedAtOnce(
        new ProcessingStrategy.Auto(1, action, Duration.ofMinutes(1), 1, 1), "auto");
  }

  private void assertRefusedAtOnce(ProcessingStrategy strategy, String stage) throws Exception {
    Flow flow = Flow.builder("offered").strategy(strategy).source(source).processor(gate).build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      CompletableFuture<Message> first = source.context.offer(Message.of("first"));
      await().until(() -> gate.holding() == 1);

      long start = System.nanoTime();
      CompletableFuture<Message> late = source.context.offer(Message.of("late"));
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1_000);
      assertThat(late).isCompletedExceptionally();
      assertThat(late.exceptionNow()).isInstanceOf(FlowBusyException.class);
      FlowBusyException busy = (FlowBusyException) late.exceptionNow();
      assertThat(busy.stage()).isEqualTo(stage);
      assertThat(busy.reason()).isEqualTo(FlowBusyException.Reason.SOURCE_CANNOT_WAIT);
      assertThat(busy)
          .hasMessageContaining("The source answers busy rather than wait")
          .hasMessageContaining(
              "auto".equals(stage) ? "raise the flow's maxInFlight" : "maxThreadsActive");
      assertThat(gate.entered()).isEqualTo(1);

      gate.open();
      assertThat(first.get(10, TimeUnit.SECONDS).payload()).isEqualTo("first");
    }
  }
}
