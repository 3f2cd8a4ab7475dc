package io.sluice.http;

import io.sluice.core.Message;
import io.sluice.core.spi.Source;
import io.sluice.testkit.SourceContractTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;

/**
 * The source contract, run against an HTTP listener on an ephemeral port: each provoked message is
 * a POST whose body is the content. A client is answered from the flow's result; nothing is
 * redelivered (the client retries, not the server).
 */
class HttpListenerSourceContractTest extends SourceContractTest {

  private final HttpClient client = HttpClient.newHttpClient();
  private int port;

  @Override
  protected Source newSource(Path workDir) {
    return new HttpListenerSource(
        HttpServerConfig.builder(0)
            .host("127.0.0.1")
            .shutdownTimeout(Duration.ofSeconds(1))
            .build(),
        "/contract",
        Set.of("POST"));
  }

  @Override
  protected Predicate<Message> provoke(String content) {
    if (port == 0) {
      port = ((HttpListenerSource) source).port();
    }
    // Sent without waiting: the response comes when the test completes the submission, and
    // after stop() the request fails to connect, which is what the contract expects.
    client.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/contract"))
            .header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString(content))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    return message -> content.equals(message.payload());
  }

  @AfterEach
  void closeTheClient() {
    // Requests whose submissions the test never completed are abandoned, not waited for.
    client.shutdownNow();
  }
}
