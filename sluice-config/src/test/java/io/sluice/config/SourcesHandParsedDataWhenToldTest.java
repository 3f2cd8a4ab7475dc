package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.ConfigProblem;
import io.sluice.core.app.Application;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file source and an HTTP listener told {@code read:} hand their flow parsed data: the flow's
 * first processor sees maps and lists, not bytes; a mistake inside the source's read is reported at
 * its line like any other.
 */
class SourcesHandParsedDataWhenToldTest {

  @TempDir Path dir;

  private Application start(String yaml) {
    Application app =
        ConfigLoader.parse("app.yaml", yaml, dir, getClass().getClassLoader()).build();
    app.start();
    return app;
  }

  @Test
  void aFileSourceHandsTheRowsOfEachCsvFile() throws Exception {
    Files.createDirectories(dir.resolve("in"));
    Files.writeString(dir.resolve("in/order.csv"), "sku,qty\nA-1,2\nB-7,1\n");
    String yaml =
        """
        flows:
          - name: orders
            source:
              file: { directory: in, pattern: "*.csv", pollingFrequency: 100ms, read: { format: csv } }
            processors:
              - set-payload: { value: "#[payload.size()] rows, first #[payload[0].sku]" }
              - file-write: { directory: out, fileName: "#[attributes.fileName].txt" }
        """;
    try (Application app = start(yaml)) {
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Files.exists(dir.resolve("out/order.csv.txt")));
    }
    assertThat(dir.resolve("out/order.csv.txt")).hasContent("2 rows, first A-1");
  }

  @Test
  void anHttpListenerHandsTheParsedBody() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String yaml =
        """
        flows:
          - name: api
            source:
              http-listener: { host: 127.0.0.1, port: %d, path: /orders, read: }
            processors:
              - set-payload: { value: "order #[payload.order.id] of #[payload.order.items.size()]" }
        """
            .formatted(port);
    try (Application app = start(yaml)) {
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
                      .header("content-type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"order\": {\"id\": 7, \"items\": [1, 2, 3]}}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(answer.body()).isEqualTo("order 7 of 3");
    }
  }

  @Test
  void aMistakeInASourcesReadIsReportedAtItsLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            flows:
              - name: orders
                source:
                  file: { directory: in, read: { formt: csv } }
            """);
    assertThat(problems)
        .anySatisfy(
            p -> {
              assertThat(p.path()).isEqualTo("flows[0].source.file.read.formt");
              assertThat(p.source()).startsWith("app.yaml:4:");
            });
  }
}
