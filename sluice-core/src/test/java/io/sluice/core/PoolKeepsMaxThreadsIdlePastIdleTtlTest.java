package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.testing.SluiceThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * maxThreadsIdle (Mule's threads kept when idle, the pool's core size): past idleTtl a pool shrinks
 * to that many threads, not to none, and the next messages run on them. They still start on demand:
 * a pool that never needed a second thread keeps one.
 */
class PoolKeepsMaxThreadsIdlePastIdleTtlTest {

  private static ThreadingProfile keeping(int active, int idle) {
    return ThreadingProfile.builder()
        .maxThreadsActive(active)
        .maxThreadsIdle(idle)
        .maxQueue(10)
        .idleTtl(Duration.ofMillis(1))
        .build();
  }

  /**
   * Threads of the pool, once the surplus ones ended: a kept thread waits for work without a
   * timeout (WAITING), where one that will end waits with idleTtl (TIMED_WAITING).
   */
  private static boolean onlyKeptThreadsLeft(String prefix, int kept) {
    List<Thread> threads = SluiceThreads.alive(prefix);
    return threads.size() == kept
        && threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
  }

  @Test
  void aBusyPoolShrinksToMaxThreadsIdleAndTheNextMessageRunsOnAKeptThread() throws Exception {
    Gate gate = Gate.blocking();
    Flow flow =
        Flow.builder("kept")
            .strategy(new ProcessingStrategy.Synchronous(keeping(4, 2)))
            .processor(gate)
            .build();
    String prefix = "sluice-kept-receiver-";
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      List<CompletableFuture<Message>> results =
          IntStream.range(0, 4).mapToObj(i -> app.send("kept", Message.of(i))).toList();
      await().until(() -> gate.holding() == 4);
      assertThat(SluiceThreads.alive(prefix)).hasSize(4);
      gate.open();
      for (CompletableFuture<Message> result : results) {
        result.get(10, TimeUnit.SECONDS);
      }

      await().until(() -> onlyKeptThreadsLeft(prefix, 2));
      List<Thread> kept = SluiceThreads.alive(prefix);

      app.send("kept", Message.of("later")).get(10, TimeUnit.SECONDS);
      assertThat(kept).contains(gate.threads().getLast());
      assertThat(SluiceThreads.alive(prefix)).containsExactlyInAnyOrderElementsOf(kept);
    }
  }

  @Test
  void aPoolThatNeverNeededASecondThreadKeepsOne() throws Exception {
    Flow flow =
        Flow.builder("once")
            .strategy(new ProcessingStrategy.Synchronous(keeping(4, 2)))
            .processor(m -> m.withVariable("seen", true))
            .build();
    String prefix = "sluice-once-receiver-";
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      Gauge active =
          app.meterRegistry().get("sluice.stage.active").tag("stage", "receiver").gauge();
      for (int i = 0; i < 5; i++) {
        app.send("once", Message.of(i)).get(10, TimeUnit.SECONDS);
        await().until(() -> active.value() == 0);
      }
      await().until(() -> onlyKeptThreadsLeft(prefix, 1));
    }
  }

  @Test
  void moreIdleThreadsThanActiveOnesAreRefused() {
    assertThatThrownBy(
            () -> ThreadingProfile.builder().maxThreadsActive(2).maxThreadsIdle(3).build())
        .isInstanceOfSatisfying(
            ConfigurationException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.path()).isEqualTo("maxThreadsIdle");
                          assertThat(p.value()).isEqualTo(3);
                          assertThat(p.rule()).contains("at most maxThreadsActive (2)");
                        }));
  }
}
