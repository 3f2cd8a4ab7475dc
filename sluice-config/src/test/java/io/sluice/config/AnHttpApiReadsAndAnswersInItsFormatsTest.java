package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.http.HttpListenerSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * An HTTP listener's flow reads each request in the format its content type names, and answers in
 * JSON with the content type {@code write} set, or 400 with the parse error's line.
 */
class AnHttpApiReadsAndAnswersInItsFormatsTest {

  private static final String API =
      """
      flows:
        - name: orders
          source:
            http-listener: { host: 127.0.0.1, port: 0, path: /orders, methods: [POST] }
          processors:
            - read:
            - transform:
                template:
                  id: "#[payload.order.id]"
                  skus: "#[payload.order.sku]"
            - write: { format: json }
          errorHandler:
            - onErrorContinue:
                types: [PARSE]
                processors:
                  - set-variable: { name: httpStatus, value: "#[400]" }
                  - set-payload: { value: "line #[error.cause.line()]" }
      """;

  private static HttpResponse<String> post(Application app, String type, String body)
      throws Exception {
    int port = ((HttpListenerSource) app.flows().getFirst().source()).port();
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
              .header("content-type", type)
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  @Test
  void jsonXmlAndYamlOrdersAreAnsweredInJson() throws Exception {
    try (Application app = Configs.build(API)) {
      app.start();

      HttpResponse<String> json =
          post(app, "application/json", "{\"order\": {\"id\": 7, \"sku\": [\"A\", \"B\"]}}");
      HttpResponse<String> xml =
          post(
              app,
              "text/xml; charset=UTF-8",
              "<doc><order><id>8</id><sku>A</sku><sku>B</sku></order></doc>");
      HttpResponse<String> yaml =
          post(app, "application/x-yaml", "order:\n  id: 9\n  sku: [A, B]\n");

      assertThat(json.body()).isEqualTo("{\"id\":7,\"skus\":[\"A\",\"B\"]}");
      assertThat(xml.body()).isEqualTo("{\"id\":\"8\",\"skus\":[\"A\",\"B\"]}");
      assertThat(yaml.body()).isEqualTo("{\"id\":9,\"skus\":[\"A\",\"B\"]}");
      assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
      assertThat(json.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aMalformedOrderIsAnswered400WithItsLine() throws Exception {
    try (Application app = Configs.build(API)) {
      app.start();

      HttpResponse<String> response = post(app, "application/json", "{\n\"order\": {\"id\": 7,,}}");

      assertThat(response.statusCode()).isEqualTo(400);
      assertThat(response.body()).isEqualTo("line 2");
    }
  }
}
