package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ConfigProblem;
import io.sluice.core.app.Application;
import io.sluice.http.HttpListenerSource;
import io.sluice.http.HttpServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HttpListenerIsMappedFromYamlTest {

  private static HttpListenerSource listener(Application app) {
    return (HttpListenerSource) app.flows().getFirst().source();
  }

  @Test
  void everyKeyIsRead() {
    HttpListenerSource listener =
        listener(
            Configs.build(
                """
                flows:
                  - name: api
                    source:
                      http-listener:
                        host: 127.0.0.1
                        port: 8081
                        path: /orders/{id}
                        methods: [GET, POST]
                        maxBodySize: 1MB
                        maxHeaderSize: 16KB
                        maxInitialLineLength: 2KB
                        requestTimeout: 5s
                        idleTimeout: 10s
                        maxConnections: 500
                        keepAlive: false
                        backlog: 128
                        retryAfter: 2s
                        shutdownTimeout: 3s
                        streaming: true
                """));
    assertThat(listener.path()).isEqualTo("/orders/{id}");
    assertThat(listener.streaming()).isTrue();
    assertThat(listener.methods()).isEqualTo(Set.of("GET", "POST"));
    assertThat(listener.server())
        .isEqualTo(
            new HttpServerConfig(
                "127.0.0.1",
                8081,
                1 << 20,
                16 << 10,
                2 << 10,
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                500,
                false,
                128,
                Duration.ofSeconds(2),
                Duration.ofSeconds(3),
                null));
  }

  @Test
  void theDefaultsNeedNoTuning() {
    HttpListenerSource listener =
        listener(
            Configs.build("flows: [ { name: api, source: { http-listener: { port: 8081 } } } ]"));
    assertThat(listener.path()).isEqualTo("/");
    assertThat(listener.methods()).isEmpty();
    assertThat(listener.server()).isEqualTo(HttpServerConfig.builder(8081).build());
  }

  @Test
  void brokenValuesAreReportedTogetherWithKeyValueRuleAndLine() {
    List<ConfigProblem> problems =
        Configs.problems(
            """
            flows:
              - name: api
                source:
                  http-listener:
                    port: 8081
                    path: /orders/{id}/{id}
                    maxHeaderSize: 100
                    retryAfter: 1500ms
            """);
    assertThat(problems)
        .extracting(ConfigProblem::path, p -> String.valueOf(p.value()), ConfigProblem::rule)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "flows[0].source.http-listener.maxHeaderSize", "100", "must be at least 256"),
            org.assertj.core.groups.Tuple.tuple(
                "flows[0].source.http-listener.retryAfter",
                "PT1.5S",
                "must be a whole number of seconds, from 0 to 24h"),
            org.assertj.core.groups.Tuple.tuple(
                "flows[0].source.http-listener.path",
                "/orders/{id}/{id}",
                "names the path parameter 'id' twice"));
    assertThat(problems).allSatisfy(p -> assertThat(p.source()).startsWith("app.yaml:"));
  }

  @Test
  void aLoadedListenerServesRequests() throws Exception {
    Application app =
        Configs.build(
            """
            flows:
              - name: hello
                source:
                  http-listener: { host: 127.0.0.1, port: 0, path: "/hello/{name}" }
                processors:
                  - set-payload: { value: "hello #[attributes.pathParams.name]" }
            """);
    try (app;
        HttpClient client = HttpClient.newHttpClient()) {
      app.start();
      URI uri = URI.create("http://127.0.0.1:" + listener(app).port() + "/hello/ada");
      HttpResponse<String> response =
          client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("hello ada");
    }
  }

  @Test
  void aRequesterCallsTheListenerOfAnotherFlow() throws Exception {
    try (Application server =
        Configs.build(
            """
            flows:
              - name: upper
                source:
                  http-listener: { host: 127.0.0.1, port: 0, methods: [POST] }
                processors:
                  - expression: { expression: "payload.toUpperCase() + attributes.headers['x-tag']" }
            """)) {
      server.start();
      int port = listener(server).port();
      try (Application caller =
          Configs.build(
              """
              flows:
                - name: caller
                  processors:
                    - http-request:
                        url: "http://127.0.0.1:%d/"
                        method: POST
                        headers: { X-Tag: "#[vars.tag]" }
                        responseTimeout: 5s
                        maxConnectionsPerHost: 4
              """
                  .formatted(port))) {
        caller.start();
        var result =
            caller
                .send("caller", io.sluice.core.Message.of("hi").withVariable("tag", "!"))
                .get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(result.payload()).isEqualTo("HI!");
        assertThat(result.attribute("statusCode")).isEqualTo(200);
      }
    }
  }
}
