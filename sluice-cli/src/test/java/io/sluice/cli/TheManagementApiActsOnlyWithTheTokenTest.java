package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.app.Operations;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.DeadLetterFlows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /api/ over a real socket: reads and actions, the token, and actions on what is gone. */
class TheManagementApiActsOnlyWithTheTokenTest {

  private static final String TOKEN = "0123456789abcdef-api-token";

  @TempDir Path work;

  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> send(int port, String method, String path, String token, String type)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(
                method,
                method.equals("POST")
                    ? HttpRequest.BodyPublishers.ofString("{}")
                    : HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (type != null) {
      request.header("Content-Type", type);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> act(int port, String path) throws Exception {
    return send(port, "POST", path, TOKEN, "application/json");
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return new ObjectMapper().readTree(response.body());
  }

  @Test
  void flowsStopAndStartAndADeadLetterIsRequeuedOnceWithTheToken() throws Exception {
    DeadLetterFlows orders = new DeadLetterFlows();
    Path tokenFile = Files.writeString(work.resolve("token"), TOKEN);
    ManagementAccess access = ManagementAccess.of("127.0.0.1", tokenFile, false, Map.of());
    try (Application app =
            Application.builder()
                .storage(StorageConfig.builder().type("memory").build())
                .flow(orders.publish())
                .flow(orders.consume())
                .build();
        ManagementServer server =
            ManagementServer.start("127.0.0.1", 0, ManagementServer.registry(), access)) {
      int port = server.port();
      assertThat(send(port, "GET", "/api/flows", TOKEN, null).statusCode())
          .as("before the application runs")
          .isEqualTo(503);
      app.start();
      server.ready(List.of(), new Operations(app));

      assertThat(send(port, "GET", "/api/flows", null, null).statusCode()).isEqualTo(401);
      HttpResponse<String> stopWithoutToken =
          send(port, "POST", "/api/flows/consume/stop", null, "application/json");
      assertThat(stopWithoutToken.statusCode()).isEqualTo(401);
      assertThat(app.flowStopped("consume")).as("nothing done without the token").isFalse();
      assertThat(send(port, "POST", "/api/flows/consume/stop", TOKEN, "text/plain").statusCode())
          .as("a form post from another site")
          .isEqualTo(415);
      assertThat(app.flowStopped("consume")).isFalse();

      try (java.net.Socket raw = new java.net.Socket("127.0.0.1", port)) {
        raw.getOutputStream()
            .write(
                ("GET /api/queues/%zz/dead-letters HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + TOKEN
                        + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        String answer =
            new String(
                raw.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        // The JDK's server refuses it before the API sees it (no URI can be made of it).
        assertThat(answer).as("a path that does not decode").startsWith("HTTP/1.1 400");
      }

      JsonNode flows = json(send(port, "GET", "/api/flows", TOKEN, null));
      assertThat(flows).hasSize(2);
      assertThat(flows.get(1).get("name").asText()).isEqualTo("consume");
      assertThat(flows.get(1).get("strategy").asText()).isEqualTo("auto");

      HttpResponse<String> stop = act(port, "/api/flows/consume/stop");
      assertThat(stop.statusCode()).isEqualTo(200);
      assertThat(app.flowStopped("consume")).isTrue();
      HttpResponse<String> again = act(port, "/api/flows/consume/stop");
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(json(again).get("message").asText())
          .isEqualTo("flow 'consume' was stopped already");
      assertThat(act(port, "/api/flows/nothing/stop").statusCode()).isEqualTo(404);
      assertThat(act(port, "/api/flows/consume/start").statusCode()).isEqualTo(200);

      app.send("publish", Message.of("order 7")).get(5, TimeUnit.SECONDS);
      String queue = DeadLetterFlows.QUEUE;
      String encoded = queue.replace("/", "%2F");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  json(send(port, "GET", "/api/queues", TOKEN, null))
                          .get(0)
                          .get("deadLetters")
                          .asLong()
                      == 1);
      JsonNode dead =
          json(send(port, "GET", "/api/queues/" + encoded + "/dead-letters", TOKEN, null));
      assertThat(dead).hasSize(1);
      assertThat(dead.get(0).get("payload").asText()).isEqualTo("order 7");
      assertThat(dead.get(0).get("reason").asText()).isNotBlank();
      long id = dead.get(0).get("id").asLong();

      orders.downstreamUp.set(true);
      String requeue = "/api/queues/" + encoded + "/dead-letters/" + id + "/requeue";
      assertThat(act(port, requeue).statusCode()).isEqualTo(200);
      HttpResponse<String> twice = act(port, requeue);
      assertThat(twice.statusCode()).isEqualTo(409);
      assertThat(json(twice).get("message").asText()).contains("nothing changed");
      assertThat(act(port, "/api/queues/" + encoded + "/dead-letters/x/drop").statusCode())
          .isEqualTo(400);
      assertThat(act(port, "/api/queues/nothing/dead-letters/1/drop").statusCode()).isEqualTo(404);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  json(send(port, "GET", "/api/queues", TOKEN, null))
                          .get(0)
                          .get("deadLetters")
                          .asLong()
                      == 0);
    }
  }
}
