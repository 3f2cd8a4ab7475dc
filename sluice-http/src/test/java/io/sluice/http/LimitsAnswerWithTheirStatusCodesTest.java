package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Each limit of the server answers with its own status code, on a real socket, counts itself in
 * {@code sluice.http.refused}, and leaves the server serving everyone else.
 */
class LimitsAnswerWithTheirStatusCodesTest {

  private static final Processor OK =
      Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("ok"));

  private static Listening start(HttpServerConfig config) {
    return Listening.start(config, "/", ProcessingStrategy.defaultStrategy(), f -> f.processor(OK));
  }

  private static void stillServes(Listening http) throws Exception {
    assertThat(http.get("/").body()).isEqualTo("ok");
  }

  @Test
  void aBodyOverTheLimitIs413() throws Exception {
    try (Listening http = start(Listening.server().maxBodySize(10).build())) {
      HttpResponse<String> response =
          http.client.send(
              HttpRequest.newBuilder(http.uri("/"))
                  .POST(HttpRequest.BodyPublishers.ofString("x".repeat(11)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(413);
      assertThat(http.refused("body-too-large")).isEqualTo(1);
      stillServes(http);
    }
  }

  /**
   * Sends {@code request} on a raw socket; checks the server answered {@code status}, counted
   * {@code reason}, closed the connection, and still serves others. Returns the answer.
   */
  private static String answers(HttpServerConfig config, String request, int status, String reason)
      throws Exception {
    try (Listening http = start(config);
        RawClient raw = http.raw()) {
      String answer = raw.send(request).readUntilClosed();
      assertThat(RawClient.status(answer)).isEqualTo(status);
      assertThat(http.refused(reason)).isEqualTo(1);
      stillServes(http);
      return answer;
    }
  }

  @Test
  void aChunkedBodyOverTheLimitIs413AndTheConnectionCloses() throws Exception {
    answers(
        Listening.server().maxBodySize(10).build(),
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "8\r\n12345678\r\n8\r\n12345678\r\n",
        413,
        "body-too-large");
  }

  @Test
  void headersOverTheLimitAre431() throws Exception {
    answers(
        Listening.server().maxHeaderSize(1024).build(),
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(2000) + "\r\n\r\n",
        431,
        "headers-too-large");
  }

  @Test
  void aRequestLineOverTheLimitIs414() throws Exception {
    answers(
        Listening.server().maxInitialLineLength(100).build(),
        "GET /" + "a".repeat(200) + " HTTP/1.1\r\n\r\n",
        414,
        "line-too-long");
  }

  @Test
  void aMalformedRequestIs400WithoutAStackTrace() throws Exception {
    String answer =
        answers(
            Listening.server().build(),
            "GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
            400,
            "malformed");
    assertThat(answer).doesNotContain("Exception", "\tat ", "io.netty");
  }

  @Test
  void garbageInsteadOfARequestIs400() throws Exception {
    answers(Listening.server().build(), "\u0001\u0002 nonsense\r\n\r\n", 400, "malformed");
  }

  @Test
  void aSlowClientIsAnswered408AtTheRequestTimeout() throws Exception {
    // Slow-loris: headers begun and never finished.
    answers(
        Listening.server().requestTimeout(Duration.ofMillis(300)).build(),
        "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1",
        408,
        "slow-client");
  }

  @Test
  void aFlowStillWorkingAtTheRequestTimeoutIs504() throws Exception {
    Gate stuck = new Gate("late");
    try (Listening http =
        Listening.start(
            Listening.server().requestTimeout(Duration.ofMillis(300)).build(),
            "/",
            ProcessingStrategy.defaultStrategy(),
            f -> f.processor(stuck))) {
      HttpResponse<String> response = http.get("/");
      assertThat(response.statusCode()).isEqualTo(504);
      assertThat(http.refused("timeout")).isEqualTo(1);
      stuck.open();
    }
  }

  @Test
  void aLaterRequestOnAKeptAliveConnectionHasItsOwnClock() throws Exception {
    Gate stuck = new Gate("late");
    try (Listening http =
            Listening.start(
                Listening.server().requestTimeout(Duration.ofMillis(300)).build(),
                "/*",
                ProcessingStrategy.defaultStrategy(),
                f -> f.processor(m -> "/slow".equals(m.attribute("path")) ? stuck.process(m) : m));
        RawClient raw = http.raw()) {
      raw.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(raw.readResponse()).startsWith("HTTP/1.1 200");
      raw.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(RawClient.status(raw.readUntilClosed())).isEqualTo(504);
      assertThat(http.refused("timeout")).isEqualTo(1);
      stuck.open();
    }
  }

  @Test
  void anIdleConnectionIsClosedAtTheIdleTimeout() throws Exception {
    try (Listening http = start(Listening.server().idleTimeout(Duration.ofMillis(200)).build());
        RawClient raw = http.raw()) {
      assertThat(raw.closedByServer()).isTrue();
      stillServes(http);
    }
  }

  @Test
  void oneConnectionOverTheMaximumIs503AndClosed() throws Exception {
    try (Listening http = start(Listening.server().maxConnections(1).build());
        RawClient first = http.raw()) {
      await().until(() -> http.connections() == 1);
      RawClient second = http.raw();
      String answer = second.readUntilClosed();
      assertThat(RawClient.status(answer)).isEqualTo(503);
      assertThat(answer).contains("Retry-After: 1");
      assertThat(http.refused("connections")).isEqualTo(1);
      String served =
          first.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").readUntilClosed();
      assertThat(RawClient.status(served)).isEqualTo(200);
      second.close();
    }
  }

  @Test
  void withoutKeepAliveEachResponseClosesItsConnection() throws Exception {
    try (Listening http = start(Listening.server().keepAlive(false).build());
        RawClient raw = http.raw()) {
      String answer = raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").readUntilClosed();
      assertThat(RawClient.status(answer)).isEqualTo(200);
      assertThat(answer).containsIgnoringCase("connection: close");
    }
  }
}
