package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.expression.Template;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.RoutingException;
import io.sluice.core.router.ScatterGather;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.testkit.RecordingSourceContext;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requester is a scope that waits for its response: under {@code auto} no thread waits, and a
 * call cut short (a scatter-gather's timeout, an interrupted caller outside a flow) gives its
 * connection back at once. One connection per host here, so a connection not given back would stop
 * the next call.
 */
class RequesterWaitsWithoutAThreadTest {

  private final CountDownLatch slowAnswers = new CountDownLatch(1);
  private Listening server;

  /** {@code /slow} answers when the test ends; {@code /echo} at once, with the body it got. */
  @BeforeEach
  void startTheServer() {
    Processor answer =
        Processor.of(
            ProcessingType.BLOCKING_IO,
            m -> {
              if ("slow".equals(((Map<?, ?>) m.attribute("pathParams")).get("what"))) {
                slowAnswers.await(30, TimeUnit.SECONDS);
                return m.withPayload("late");
              }
              Object body = m.payload();
              return m.withPayload(
                  "echo:"
                      + (body instanceof byte[] bytes
                          ? new String(bytes, StandardCharsets.UTF_8)
                          : body));
            });
    server = Listening.start("/{what}", answer);
  }

  @AfterEach
  void stopTheServer() {
    slowAnswers.countDown();
    server.close();
  }

  private HttpRequestProcessor requester() {
    return new HttpRequestProcessor(
        HttpRequestConfig.builder(
                "POST",
                Template.parse(
                    "url", "http://127.0.0.1:" + server.listener.port() + "/#[vars.what]"))
            .maxConnectionsPerHost(1)
            .responseTimeout(Duration.ofSeconds(20))
            .build());
  }

  /** A message calling {@code /what} with {@code what} as its body. */
  private static Message call(String what) {
    return Message.of(what).withVariable("what", what);
  }

  @Test
  void aCallCutByAScatterGatherTimeoutGivesItsConnectionBack() throws Exception {
    ScatterGather sg =
        new ScatterGather(
            "fan",
            List.of(
                new ScatterGather.Route("call", List.of(requester())),
                new ScatterGather.Route(
                    "other", List.of(Processor.of(ProcessingType.CPU_LITE, m -> m)))),
            Duration.ofMillis(300),
            false,
            "routeErrors");
    try (Application app =
        Application.builder().flow(Flow.builder("f").processor(sg).build()).build()) {
      app.start();
      assertThatThrownBy(() -> app.send("f", call("slow")).get(20, TimeUnit.SECONDS))
          .cause()
          .isInstanceOf(RoutingException.class)
          .hasMessageContaining("timed out after PT0.3S");
      // The one connection was closed and given back: the next call gets one at once, long
      // before the cut call's own response timeout.
      Message next = app.send("f", call("echo")).get(10, TimeUnit.SECONDS);
      assertThat(((Map<?, ?>) next.payload()).get("call")).isEqualTo("echo:echo");
      await().atMost(Duration.ofSeconds(10)).until(() -> server.connections() == 1);
    }
  }

  @Test
  void outsideAFlowTheCallerWaitsForTheResponse() throws Exception {
    HttpRequestProcessor requester = requester();
    requester.start(new RecordingSourceContext());
    try {
      Message answered = requester.process(call("echo"));
      assertThat(answered.payload()).isEqualTo("echo:echo");
      assertThat(answered.attribute("statusCode")).isEqualTo(200);
    } finally {
      requester.stop();
    }
  }

  @Test
  void anInterruptedCallerOutsideAFlowGivesItsConnectionBack() throws Exception {
    HttpRequestProcessor requester = requester();
    requester.start(new RecordingSourceContext());
    try {
      CompletableFuture<Throwable> cut = new CompletableFuture<>();
      Thread caller =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      requester.process(call("slow"));
                      cut.complete(null);
                    } catch (Throwable e) {
                      cut.complete(e);
                    }
                  });
      await().atMost(Duration.ofSeconds(10)).until(() -> server.connections() == 1);
      caller.interrupt();
      assertThat(cut.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
      CompletableFuture<Message> next =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return requester.process(call("echo"));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(next.get(10, TimeUnit.SECONDS).payload()).isEqualTo("echo:echo");
    } finally {
      requester.stop();
    }
  }

  @Test
  void aStreamedPayloadIsReadAndSent() throws Exception {
    try (Application app =
        Application.builder().flow(Flow.builder("f").processor(requester()).build()).build()) {
      app.start();
      Message answered =
          app.send(
                  "f",
                  Message.of(new ByteArrayInputStream("streamed".getBytes(StandardCharsets.UTF_8)))
                      .withVariable("what", "echo"))
              .get(10, TimeUnit.SECONDS);
      assertThat(answered.payload()).isEqualTo("echo:streamed");
    }
  }
}
