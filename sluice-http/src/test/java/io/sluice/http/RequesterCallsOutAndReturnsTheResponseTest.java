package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.ThrottledException;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.http.internal.NettyClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The requester calls a real server (a listener on 127.0.0.1) from a flow: the response becomes the
 * message, at most maxConnectionsPerHost calls run at once, and timeouts and busy answers fail the
 * call the way the adaptive limit understands.
 */
class RequesterCallsOutAndReturnsTheResponseTest {

  /** Runs {@code message} through the caller flow, whose one processor is the requester. */
  private static CompletableFuture<Message> call(Application app, Message message) {
    return app.send("caller", message);
  }

  private static Application caller(
      Listening server, String pathAndQuery, UnaryOperator<HttpRequestConfig.Builder> config) {
    HttpRequestConfig.Builder builder =
        HttpRequestConfig.builder(
            "POST",
            Template.parse("url", "http://127.0.0.1:" + server.listener.port() + pathAndQuery));
    HttpRequestProcessor requester = new HttpRequestProcessor(config.apply(builder).build());
    Application app =
        Application.builder().flow(Flow.builder("caller").processor(requester).build()).build();
    app.start();
    return app;
  }

  @Test
  void theResponseBecomesTheMessage() throws Exception {
    Processor echo =
        Processor.of(
            ProcessingType.CPU_LITE,
            m ->
                m.withPayload(
                        "{\"got\":\""
                            + m.payload()
                            + "\",\"id\":\""
                            + ((Map<?, ?>) m.attribute("pathParams")).get("id")
                            + "\",\"h\":\""
                            + ((Map<?, ?>) m.attribute("headers")).get("x-id")
                            + "\"}")
                    .withVariable(HttpListenerSource.STATUS, 201)
                    .withVariable(
                        HttpListenerSource.HEADERS, Map.of("Content-Type", "application/json")));
    try (Listening server = Listening.start("/things/{id}", echo);
        Application app =
            caller(
                server,
                "/things/#[vars.id]",
                c -> c.headers(Map.of("X-Id", Template.parse("h", "#[vars.id]"))))) {
      Message result =
          call(app, Message.of("hello").withVariable("id", "42")).get(10, TimeUnit.SECONDS);
      assertThat(result.payload()).isEqualTo("{\"got\":\"hello\",\"id\":\"42\",\"h\":\"42\"}");
      assertThat(result.attribute("statusCode")).isEqualTo(201);
      assertThat(((Map<?, ?>) result.attribute("headers")).get("content-type"))
          .isEqualTo("application/json");
      assertThat(result.variable("id")).isEqualTo("42");
    }
  }

  @Test
  void atMostMaxConnectionsPerHostCallsRunAtOnce() throws Exception {
    Gate gate = new Gate("done");
    try (Listening server = Listening.start("/slow", gate);
        Application app = caller(server, "/slow", c -> c.maxConnectionsPerHost(2))) {
      List<CompletableFuture<Message>> calls = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        calls.add(call(app, Message.of("call " + i)));
      }
      await().until(() -> gate.holding() == 2);
      assertThat(server.connections()).isEqualTo(2);
      gate.open();
      for (CompletableFuture<Message> c : calls) {
        assertThat(c.get(10, TimeUnit.SECONDS).payload()).isEqualTo("done");
      }
      assertThat(gate.maxHolding()).isEqualTo(2);
      assertThat(gate.entered()).isEqualTo(5);
    }
  }

  @Test
  void aResponseLaterThanTheTimeoutFailsTheCallWithATimeout() throws Exception {
    Gate gate = new Gate("late");
    try (Listening server = Listening.start("/slow", gate);
        Application app = caller(server, "/slow", c -> c.responseTimeout(Duration.ofMillis(300)))) {
      assertThatThrownBy(() -> call(app, Message.of("x")).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(TimeoutException.class);
      gate.open();
    }
  }

  @Test
  void busyAnswersAreThrottlingAndErrorStatusesFailUnlessAskedNotTo() throws Exception {
    Processor status =
        Processor.of(
            ProcessingType.CPU_LITE,
            m ->
                m.withVariable(
                    HttpListenerSource.STATUS,
                    ((Map<?, ?>) m.attribute("queryParams")).get("status")));
    try (Listening server = Listening.start("/status", status);
        Application failing = caller(server, "/status?status=#[payload]", c -> c);
        Application lenient =
            caller(server, "/status?status=#[payload]", c -> c.failOnErrorStatus(false))) {
      assertThatThrownBy(() -> call(failing, Message.of("503")).get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOf(ThrottledException.class);
      assertThatThrownBy(() -> call(failing, Message.of("404")).get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOfSatisfying(
              HttpStatusException.class, e -> assertThat(e.status()).isEqualTo(404));
      Message notFound = call(lenient, Message.of("404")).get(10, TimeUnit.SECONDS);
      assertThat(notFound.attribute("statusCode")).isEqualTo(404);
    }
  }

  @Test
  void closingAClientTwiceLeavesTheSharedEngineToTheOthers() throws Exception {
    Processor pong = Processor.of(ProcessingType.CPU_LITE, m -> m.withPayload("pong"));
    try (Listening server = Listening.start("/ping", pong)) {
      NettyClient other =
          new NettyClient(Duration.ofSeconds(1), Duration.ofSeconds(1), 1, 1024, null);
      other.close();
      other.close();

      try (Application app = caller(server, "/ping", c -> c)) {
        assertThat(call(app, Message.of("ping")).get(10, TimeUnit.SECONDS).payload())
            .isEqualTo("pong");
      }
    }
  }
}
