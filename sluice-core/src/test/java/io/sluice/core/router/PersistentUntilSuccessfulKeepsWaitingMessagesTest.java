package io.sluice.core.router;

import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Backoff;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Delivery;
import io.sluice.core.store.StorageConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A persistent until-successful commits the message and lets the flow go on; its retries run from
 * the store's queue (the memory store here; the restart from SQLite is in sluice-config's tests).
 */
class PersistentUntilSuccessfulKeepsWaitingMessagesTest {

  private final AtomicInteger tries = new AtomicInteger();
  private final List<Object> done = new CopyOnWriteArrayList<>();

  private Processor flaky(int succeedOn, RuntimeException error) {
    return lite(
        m -> {
          if (tries.incrementAndGet() < succeedOn) {
            throw error;
          }
          done.add(m.payload());
          return m;
        });
  }

  private static Application app(PersistentUntilSuccessful scope) {
    Application app =
        Application.builder()
            .storage(StorageConfig.memory())
            .flow(
                Flow.builder("f")
                    .processor(scope)
                    .processor(lite(m -> m.withVariable("went on", true)))
                    .build())
            .build();
    app.start();
    return app;
  }

  private static PersistentUntilSuccessful until(
      int maxRetries, List<String> retryOn, Processor body) {
    return new PersistentUntilSuccessful(
        "deliver",
        maxRetries,
        Backoff.doubling(Duration.ofMillis(1), Duration.ofMillis(5)),
        retryOn,
        List.of(body),
        null);
  }

  @Test
  void theFlowGoesOnAtOnceAndTheMessageIsRetriedUntilItSucceeds() throws Exception {
    PersistentUntilSuccessful scope =
        until(5, List.of(), flaky(3, new IllegalStateException("down")));
    try (Application app = app(scope)) {
      Message out = app.send("f", Message.of("order-1")).get(10, TimeUnit.SECONDS);
      assertThat(out.variable("went on")).isEqualTo(true);
      await().atMost(Duration.ofSeconds(10)).until(() -> done.contains("order-1"));
      assertThat(tries).hasValue(3);
      await().atMost(Duration.ofSeconds(10)).until(() -> scope.queue().size() == 0);
      assertThat(scope.queue().deadLetterCount()).isZero();
    }
  }

  @Test
  void afterTheLastRetryTheMessageIsADeadLetter() throws Exception {
    PersistentUntilSuccessful scope =
        until(2, List.of(), flaky(100, new IllegalStateException("still down")));
    try (Application app = app(scope)) {
      app.send("f", Message.of("order-2")).get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> scope.queue().deadLetterCount() == 1);
      assertThat(tries).hasValue(3);
      assertThat(
              app.meterRegistry()
                  .get("sluice.router.exhausted")
                  .tags("router", "deliver")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  @Test
  void anErrorItDoesNotRetryIsADeadLetterAtOnceWithTheReason() throws Exception {
    PersistentUntilSuccessful scope =
        until(5, List.of("TIMEOUT"), flaky(100, new IllegalArgumentException("bad order")));
    try (Application app = app(scope)) {
      app.send("f", Message.of("order-3")).get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> scope.queue().deadLetterCount() == 1);
      assertThat(tries).hasValue(1);
      Delivery dead = scope.queue().deadLetters(1).getFirst();
      assertThat(dead.deadReason())
          .isEqualTo(
              "until-successful 'deliver' does not retry java.lang.IllegalArgumentException: bad"
                  + " order");
    }
  }
}
