package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.testing.SluiceThreads;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReceiverPoolStartsThreadsOnDemandUpToItsMaximumTest {

  @Test
  void noThreadStartsBeforeTheFirstMessageAndNeverMoreThanMaxThreadsActive() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow =
        Flow.builder("demand")
            .strategy(new ProcessingStrategy.Synchronous(Profiles.threads(3)))
            .processor(gate)
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      assertThat(SluiceThreads.alive("sluice-demand-")).isEmpty();

      List<CompletableFuture<Message>> results =
          IntStream.range(0, 10).mapToObj(i -> app.send("demand", Message.of(i))).toList();
      await().until(() -> gate.holding() == 3);
      assertThat(SluiceThreads.alive("sluice-demand-receiver-")).hasSize(3);
      gate.open();
      for (CompletableFuture<Message> result : results) {
        result.get(10, TimeUnit.SECONDS);
      }
      assertThat(gate.maxHolding()).isEqualTo(3);
      assertThat(gate.threads().stream().distinct()).hasSize(3);
    }
  }

  @Test
  void aMessageFindingAThreadIdleReusesItInsteadOfStartingANewOne() throws Exception {
    Flow flow =
        Flow.builder("reuse")
            .strategy(new ProcessingStrategy.Synchronous(Profiles.threads(16)))
            .processor(m -> m.withVariable("seen", true))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      Gauge active =
          app.meterRegistry().get("sluice.stage.active").tag("stage", "receiver").gauge();
      for (int i = 0; i < 16; i++) {
        app.send("reuse", Message.of(i)).get(10, TimeUnit.SECONDS);
        // The caller hears of the result a moment before the thread is idle again.
        await().until(() -> active.value() == 0);
      }
      assertThat(SluiceThreads.alive("sluice-reuse-receiver-")).hasSize(1);
    }
  }
}
