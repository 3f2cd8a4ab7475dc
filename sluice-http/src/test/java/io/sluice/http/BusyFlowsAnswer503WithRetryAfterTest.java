package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A flow that cannot take one more request answers 503 with Retry-After at once, whatever its
 * strategy's exhausted action: the event loop never waits for room.
 */
class BusyFlowsAnswer503WithRetryAfterTest {

  private final Gate held = new Gate("done");

  @Test
  void aSynchronousFlowWithItsOneThreadBusyRejectsWith503() throws Exception {
    ThreadingProfile oneThread =
        ThreadingProfile.builder()
            .maxThreadsActive(1)
            .maxQueue(0)
            .exhaustedAction(ExhaustedAction.REJECT)
            .build();
    assertBusyAnswers(new ProcessingStrategy.Synchronous(oneThread));
  }

  @Test
  void aSynchronousFlowThatWouldWaitAnswers503Instead() throws Exception {
    ThreadingProfile oneThread =
        ThreadingProfile.builder()
            .maxThreadsActive(1)
            .maxQueue(0)
            .exhaustedAction(ExhaustedAction.WAIT)
            .waitTimeout(Duration.ofMinutes(1))
            .build();
    assertBusyAnswers(new ProcessingStrategy.Synchronous(oneThread));
  }

  @Test
  void anAutoFlowAtItsMaxInFlightAnswers503() throws Exception {
    assertBusyAnswers(
        new ProcessingStrategy.Auto(1, ExhaustedAction.WAIT, Duration.ofMinutes(1), 1, 10));
  }

  private void assertBusyAnswers(ProcessingStrategy strategy) throws Exception {
    try (Listening http =
        Listening.start(
            Listening.server().retryAfter(Duration.ofSeconds(3)).build(),
            "/",
            strategy,
            f -> f.processor(held))) {
      CompletableFuture<HttpResponse<String>> first =
          http.client.sendAsync(
              HttpRequest.newBuilder(http.uri("/")).build(), HttpResponse.BodyHandlers.ofString());
      await().until(() -> held.holding() == 1);

      HttpResponse<String> busy = http.get("/");
      assertThat(busy.statusCode()).isEqualTo(503);
      assertThat(busy.headers().firstValue("retry-after")).hasValue("3");
      assertThat(http.refused("busy")).isEqualTo(1);

      held.open();
      assertThat(first.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
    }
  }
}
