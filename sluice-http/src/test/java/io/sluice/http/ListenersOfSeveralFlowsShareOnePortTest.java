package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Two flows listen on one host and port, each on its own path, through one server. */
class ListenersOfSeveralFlowsShareOnePortTest {

  private static Flow answering(String name, HttpListenerSource listener) {
    return Flow.builder(name)
        .source(listener)
        .processor(Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload(name)))
        .build();
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void eachFlowAnswersItsOwnPathOnTheSharedPort() throws Exception {
    HttpServerConfig server = HttpServerConfig.builder(freePort()).host("127.0.0.1").build();
    HttpListenerSource orders = new HttpListenerSource(server, "/orders/{id}", Set.of());
    HttpListenerSource health = new HttpListenerSource(server, "/health", Set.of());
    Application app =
        Application.builder()
            .flow(answering("orders", orders))
            .flow(answering("health", health))
            .build();
    try (app;
        HttpClient client = HttpClient.newHttpClient()) {
      app.start();
      assertThat(orders.port()).isEqualTo(health.port()).isEqualTo(server.port());
      for (String[] call : new String[][] {{"/orders/1", "orders"}, {"/health", "health"}}) {
        HttpResponse<String> response =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + call[0]))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo(call[1]);
      }
      app.stop();
      orders.terminated().join();
      health.terminated().join();
    }
  }

  @Test
  void listenersThatDisagreeOnTheServerSettingsDoNotStart() throws Exception {
    int port = freePort();
    HttpListenerSource first =
        new HttpListenerSource(
            HttpServerConfig.builder(port).host("127.0.0.1").build(), "/a", Set.of());
    HttpListenerSource second =
        new HttpListenerSource(
            HttpServerConfig.builder(port).host("127.0.0.1").maxConnections(5).build(),
            "/b",
            Set.of());
    Application app =
        Application.builder().flow(answering("a", first)).flow(answering("b", second)).build();
    try (app) {
      assertThatThrownBy(app::start)
          .hasMessageContaining("Flow 'b' could not start")
          .hasMessageContaining("give them the same settings");
      first.terminated().join();
    }
  }
}
