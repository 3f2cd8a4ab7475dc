package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stop stops accepting at once, answers the requests in flight (closing their connections), and
 * closes idle kept-alive connections.
 */
class GracefulShutdownFinishesRequestsInFlightTest {

  @Test
  void requestsInFlightAreAnsweredWhileNewConnectionsAreRefused() throws Exception {
    Gate held = new Gate("finished");
    Listening http = Listening.start("/", held);
    int port = http.listener.port();
    try (RawClient busy = http.raw();
        RawClient idle = http.raw()) {
      busy.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      await().until(() -> held.holding() == 1);
      await().until(() -> http.connections() == 2);

      CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(http.app::stop);
      assertThat(idle.closedByServer()).as("an idle connection closes").isTrue();
      assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
          .as("no new connection is accepted")
          .isInstanceOf(IOException.class);
      assertThat(stopped).isNotDone();

      held.open();
      String answer = busy.readUntilClosed();
      assertThat(RawClient.status(answer)).isEqualTo(200);
      assertThat(answer).containsIgnoringCase("connection: close").endsWith("finished");
      assertThat(stopped.get(10, TimeUnit.SECONDS)).as("everything drained").isTrue();
      http.listener.terminated().get(10, TimeUnit.SECONDS);
    } finally {
      http.close();
    }
  }
}
