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
   * Empty when this server takes no connection on {@code port}: the connection is refused, or it
   * connects only to itself (a connect to a free port of the ephemeral range can pick that same
   * port as its own), or the kernel completed the handshake but nobody accepts it. The last happens
   * for a moment after the server's close: the JDK releases a listening socket registered with a
   * selector only at that selector's next pass, and until then the kernel still queues connections,
   * which are reset then. This server, draining, would answer 503 at once. Otherwise, what
   * answered.
   */
  private static java.util.Optional<String> thisServerTakesNoConnectionOn(int port)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      if (socket.getLocalPort() == port) {
        return java.util.Optional.empty();
      }
      socket.setSoTimeout(1_000);
      byte[] head = new byte[12];
      int n;
      try {
        n = socket.getInputStream().readNBytes(head, 0, head.length);
      } catch (IOException silentOrReset) {
        return java.util.Optional.empty();
      }
      String answer = new String(head, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
      return answer.startsWith("HTTP/1.1 503")
          ? java.util.Optional.of("this server took a connection and answered " + answer)
          : java.util.Optional.empty();
    } catch (java.net.SocketException refusedOrReset) {
      // Refused, or reset while connecting: the kernel queued it on the closing socket (above).
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
      assertThat(thisServerTakesNoConnectionOn(port)).as("no new connection is accepted").isEmpty();
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
