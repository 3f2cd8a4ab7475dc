package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Clients that open connections to the management port and send a request a byte at a time, never
 * finishing it, hold the port's own few threads and nothing else: the flows go on as before.
 */
class AHostileManagementClientCannotStallTheFlowsTest {

  private static long managementThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("sluice-management-"))
        .count();
  }

  @Test
  void slowClientsHoldOnlyThePortsBoundedThreads() throws Exception {
    Flow flow = Flow.builder("work").processor(m -> m.withPayload(m.payload() + "!")).build();
    try (Application app = Application.builder().flow(flow).build();
        ManagementServer server =
            ManagementServer.start(
                "127.0.0.1", 0, ManagementServer.registry(), ManagementAccess.OPEN)) {
      app.start();
      List<Socket> hostile = new ArrayList<>();
      try {
        for (int i = 0; i < 3 * ManagementServer.THREADS; i++) {
          Socket socket = new Socket("127.0.0.1", server.port());
          OutputStream out = socket.getOutputStream();
          out.write(
              "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          hostile.add(socket);
        }
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> managementThreads() == ManagementServer.THREADS);
        for (int i = 0; i < 1000; i++) {
          assertThat(app.send("work", Message.of(i)).get(5, TimeUnit.SECONDS).payload())
              .isEqualTo(i + "!");
        }
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () ->
                    assertThat(managementThreads())
                        .as("each held by a slow client: twelve clients, four threads")
                        .isEqualTo(ManagementServer.THREADS));
      } finally {
        for (Socket socket : hostile) {
          socket.close();
        }
      }
    }
  }
}
