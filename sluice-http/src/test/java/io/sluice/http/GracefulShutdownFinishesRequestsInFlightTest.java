package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
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

  /**
   * Empty when a connection to {@code port} is refused, or when it connects only to itself: a
   * connect to a free port of the ephemeral range can pick that same port as its own (TCP
   * simultaneous open), which says nothing listens there. Otherwise, who answered.
   */
  private static java.util.Optional<String> nobodyListensOn(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      return socket.getLocalPort() == port
          ? java.util.Optional.empty()
          : java.util.Optional.of("connected from port " + socket.getLocalPort());
    } catch (IOException refused) {
      return java.util.Optional.empty();
    }
  }

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
      assertThat(nobodyListensOn(port)).as("no new connection is accepted").isEmpty();
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
