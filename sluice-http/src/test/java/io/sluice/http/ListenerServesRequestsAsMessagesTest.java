package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThrottledException;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A request becomes a message; the message the flow ends with becomes the response. */
class ListenerServesRequestsAsMessagesTest {

  @Test
  void pathQueryHeadersAndBodyBecomeAttributesAndPayload() throws Exception {
    Processor echo =
        m -> {
          Map<?, ?> path = (Map<?, ?>) m.attribute("pathParams");
          Map<?, ?> query = (Map<?, ?>) m.attribute("queryParams");
          Map<?, ?> headers = (Map<?, ?>) m.attribute("headers");
          return m.withPayload(
                  m.attribute("method")
                      + " "
                      + m.attribute("path")
                      + " id="
                      + path.get("id")
                      + " item="
                      + path.get("item")
                      + " q="
                      + query.get("q")
                      + " h="
                      + headers.get("x-trace")
                      + " body="
                      + m.payload())
              .withVariable(HttpListenerSource.STATUS, 201)
              .withVariable(HttpListenerSource.HEADERS, Map.of("X-Answer", "42"));
        };
    try (Listening http = Listening.start("/orders/{id}/items/{item}", echo)) {
      HttpResponse<String> response =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/orders/7/items/a%20b?q=x&q=y"))
                  .header("X-Trace", "t1")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"n\":1}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(201);
      assertThat(response.headers().firstValue("x-answer")).hasValue("42");
      assertThat(response.body())
          .isEqualTo("POST /orders/7/items/a b id=7 item=a b q=x h=t1 body={\"n\":1}");
    }
  }

  @Test
  void aBinaryBodyArrivesAsBytesAndBytesGoBackAsTheyAre() throws Exception {
    Processor reverse =
        m -> {
          byte[] in = m.payload(byte[].class);
          byte[] out = new byte[in.length];
          for (int i = 0; i < in.length; i++) {
            out[i] = in[in.length - 1 - i];
          }
          return m.withPayload(out);
        };
    try (Listening http = Listening.start("/bytes", reverse)) {
      HttpResponse<byte[]> response =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/bytes"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {1, 2, 3}))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      assertThat(response.body()).containsExactly(3, 2, 1);
      assertThat(response.headers().firstValue("content-type"))
          .hasValue("application/octet-stream");
    }
  }

  @Test
  void unknownPathsAre404AndOtherMethods405() throws Exception {
    HttpListenerSource getOnly =
        new HttpListenerSource(Listening.server().build(), "/only", java.util.Set.of("get"));
    var flow = io.sluice.core.flow.Flow.builder("get-only").source(getOnly).build();
    try (var app = io.sluice.core.app.Application.builder().flow(flow).build();
        var client = java.net.http.HttpClient.newHttpClient()) {
      app.start();
      String base = "http://127.0.0.1:" + getOnly.port();
      var get =
          client.send(
              HttpRequest.newBuilder(java.net.URI.create(base + "/only/")).build(),
              HttpResponse.BodyHandlers.ofString());
      var delete =
          client.send(
              HttpRequest.newBuilder(java.net.URI.create(base + "/only")).DELETE().build(),
              HttpResponse.BodyHandlers.ofString());
      var missing =
          client.send(
              HttpRequest.newBuilder(java.net.URI.create(base + "/other")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).isEqualTo(200);
      assertThat(delete.statusCode()).isEqualTo(405);
      assertThat(missing.statusCode()).isEqualTo(404);
      app.stop();
      getOnly.terminated().join();
    }
  }

  @Test
  void aFailedFlowAnswers500WithoutItsStackTrace() throws Exception {
    Processor fails =
        m -> {
          throw new IllegalStateException("secret detail");
        };
    try (Listening http = Listening.start("/fail", fails)) {
      HttpResponse<String> response = http.get("/fail");
      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(response.body()).doesNotContain("secret", "Exception", "at io.");
    }
  }

  @Test
  void theErrorHandlerChoosesTheStatus() throws Exception {
    Processor fails =
        m -> {
          throw new IllegalArgumentException("no such order");
        };
    Processor status =
        Processor.of(
            ProcessingType.CPU_LITE,
            m ->
                m.withVariable(HttpListenerSource.STATUS, 422)
                    .withPayload("rejected: " + m.error().orElseThrow().message()));
    try (Listening http =
        Listening.start(
            Listening.server().build(),
            "/orders",
            ProcessingStrategy.defaultStrategy(),
            f ->
                f.processor(fails)
                    .onError(
                        new OnError.Continue(
                            List.of("IllegalArgumentException"), null, List.of(status))))) {
      HttpResponse<String> response = http.get("/orders");
      assertThat(response.statusCode()).isEqualTo(422);
      assertThat(response.body()).isEqualTo("rejected: no such order");
    }
  }

  @Test
  void aKeptAliveConnectionServesRequestsOneAfterAnother() throws Exception {
    Processor hello = Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("hi"));
    try (Listening http = Listening.start("/hi", hello);
        RawClient raw = http.raw()) {
      String two =
          "GET /hi HTTP/1.1\r\nHost: x\r\n\r\n"
              + "GET /hi HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
      String answers = raw.send(two).readUntilClosed();
      assertThat(answers.split("HTTP/1.1 200 OK", -1)).hasSize(3);
      assertThat(answers).endsWith("hi");
    }
  }

  @Test
  void aBusyServiceBehindTheFlowIs503AndATimeoutBehindItIs504() throws Exception {
    Processor downstream =
        m -> {
          if ("busy".equals(((Map<?, ?>) m.attribute("queryParams")).get("say"))) {
            throw new ThrottledException("the service behind said 429");
          }
          throw new TimeoutException("the service behind never answered");
        };
    try (Listening http = Listening.start("/", downstream)) {
      HttpResponse<String> busy = http.get("/?say=busy");
      assertThat(busy.statusCode()).isEqualTo(503);
      assertThat(busy.headers().firstValue("retry-after")).hasValue("1");
      assertThat(http.get("/?say=late").statusCode()).isEqualTo(504);
    }
  }
}
