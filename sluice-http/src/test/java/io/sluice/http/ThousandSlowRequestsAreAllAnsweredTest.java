package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.spi.Processor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * E2/E3's claim in small: 1,000 clients at once, each request blocking 200 ms inside its flow, are
 * all answered 200 under the default strategy, with nothing to tune (a thread-per-request server
 * with 300 threads dropped a fifth of them).
 */
class ThousandSlowRequestsAreAllAnsweredTest {

  @Test
  void aThousandConcurrentBlockingRequestsAreAllAnswered() throws Exception {
    Processor slow =
        m -> {
          Thread.sleep(200); // the blocking call of E2/E3, on a virtual thread
          return m.withPayload("slept");
        };
    try (Listening http = Listening.start("/slow", slow)) {
      List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        responses.add(
            http.client.sendAsync(
                HttpRequest.newBuilder(http.uri("/slow?i=" + i)).build(),
                HttpResponse.BodyHandlers.ofString()));
      }
      CompletableFuture.allOf(responses.toArray(CompletableFuture[]::new))
          .get(60, TimeUnit.SECONDS);
      for (CompletableFuture<HttpResponse<String>> response : responses) {
        assertThat(response.get().statusCode()).isEqualTo(200);
        assertThat(response.get().body()).isEqualTo("slept");
      }
    }
  }
}
