package io.sluice.core.router;

import static io.sluice.core.router.Routes.lite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Backoff;
import io.sluice.core.Message;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class UntilSuccessfulRetriesWithItsBackoffTest {

  static List<ProcessingStrategy> strategies() {
    return Routes.strategies();
  }

  private final AtomicInteger tries = new AtomicInteger();

  /**
   * Fails with {@code error} until its {@code succeedOn}th try, each time on the original payload.
   */
  private Processor flaky(int succeedOn, RuntimeException error) {
    return lite(
        m -> {
          assertThat(m.payload()).as("each try gets the message as it entered").isEqualTo("in");
          if (tries.incrementAndGet() < succeedOn) {
            throw error;
          }
          return m.withPayload("done after " + tries.get());
        });
  }

  private static Application app(ProcessingStrategy strategy, UntilSuccessful scope) {
    Application app =
        Application.builder()
            .flow(
                Flow.builder("f")
                    .strategy(strategy)
                    .processor(scope)
                    .processor(lite(m -> m.withVariable("changed", true)))
                    .build())
            .build();
    app.start();
    return app;
  }

  private static UntilSuccessful until(int maxRetries, List<String> retryOn, Processor body) {
    return new UntilSuccessful(
        "again",
        maxRetries,
        Backoff.doubling(Duration.ofMillis(1), Duration.ofMillis(5)),
        retryOn,
        List.of(lite(m -> m.withPayload("in")), body));
  }

  private static Message send(Application app) throws Exception {
    return app.send("f", Message.of("in")).get(20, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aFailureIsRetriedUntilItSucceeds(ProcessingStrategy strategy) throws Exception {
    try (Application app =
        app(strategy, until(5, List.of(), flaky(4, new IllegalStateException("busy"))))) {
      assertThat(send(app).payload()).isEqualTo("done after 4");
      assertThat(
              app.meterRegistry()
                  .get("sluice.router.retries")
                  .tags("router", "again")
                  .counter()
                  .count())
          .isEqualTo(3);
    }
  }

  @Test
  void retriesRunOutWithRetryExhaustedAndTheLastErrorAsCause() {
    try (Application app =
        app(
            ProcessingStrategy.defaultStrategy(),
            until(2, List.of(), flaky(100, new IllegalStateException("still busy"))))) {
      assertThatThrownBy(() -> send(app))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("until-successful 'again' gave up on message")
          .hasMessageEndingWith("after 3 tries: still busy")
          .hasCauseInstanceOf(IllegalStateException.class)
          .satisfies(
              e ->
                  assertThat(((SluiceException) e).errorType())
                      .isEqualTo("ROUTING:RETRY_EXHAUSTED"));
      assertThat(tries).hasValue(3);
    }
  }

  @Test
  void anErrorItDoesNotRetryGoesOnAtOnce() {
    try (Application app =
        app(
            ProcessingStrategy.defaultStrategy(),
            until(5, List.of("TIMEOUT"), flaky(100, new IllegalArgumentException("bad input"))))) {
      assertThatThrownBy(() -> send(app)).cause().hasMessage("bad input");
      assertThat(tries).hasValue(1);
    }
  }

  @Test
  void theErrorsItRetriesAreMatchedByClassOrErrorType() throws Exception {
    SluiceException timeout = new SluiceException("HTTP:TIMEOUT", "no answer", null);
    try (Application app =
        app(
            ProcessingStrategy.defaultStrategy(),
            until(5, List.of("TIMEOUT"), flaky(2, timeout)))) {
      assertThat(send(app).payload()).isEqualTo("done after 2");
    }
  }
}
