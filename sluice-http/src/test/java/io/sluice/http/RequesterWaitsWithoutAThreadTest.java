package io.sluice.http;

import static io.sluice.http.SlowService.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.router.RoutingException;
import io.sluice.core.router.ScatterGather;
import io.sluice.testkit.RecordingSourceContext;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The requester is a scope that waits for its response: under {@code auto} no thread waits, and a
 * call cut short (a scatter-gather's timeout, an interrupted caller outside a flow) gives its
 * connection back at once. One connection per host here, so a connection not given back would stop
 * the next call.
 */
class RequesterWaitsWithoutAThreadTest {

  @RegisterExtension final SlowService server = new SlowService();

  /** One connection: a connection not given back would stop the next call. */
  private HttpRequestProcessor requester() {
    return server.requester(1);
  }

  @Test
  void aCallCutByAScatterGatherTimeoutGivesItsConnectionBack() throws Exception {
    ScatterGather sg = SlowService.fan(requester());
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
