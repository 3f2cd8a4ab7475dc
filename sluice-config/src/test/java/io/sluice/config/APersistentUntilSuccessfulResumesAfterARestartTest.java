package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message waiting for its retry in a persistent until-successful is kept in the SQLite store: the
 * application stops while the downstream is down, and the next start delivers it.
 */
class APersistentUntilSuccessfulResumesAfterARestartTest {

  @TempDir Path dir;

  private String yaml(boolean downstreamUp) {
    return """
        sluice: { store: { dataDir: "%s" } }
        flows:
          - name: orders
            processors:
              - until-successful:
                  name: deliver
                  persistent: true
                  maxRetries: 1000
                  delay: 10ms
                  maxDelay: 50ms
                  processors:
                    - expression: { expression: "%s" }
                    - file-write: { directory: "%s", fileName: "#[payload].txt" }
        """
        .formatted(
            dir.resolve("data"),
            downstreamUp ? "payload" : "payload.noSuchMethod()",
            dir.resolve("out"));
  }

  @Test
  void aMessageWaitingForItsRetryIsDeliveredAfterARestart() throws Exception {
    try (Application down =
        ConfigLoader.parse("app.yaml", yaml(false), dir, getClass().getClassLoader()).build()) {
      down.start();
      Message out = down.send("orders", Message.of("order-7")).get(10, TimeUnit.SECONDS);
      assertThat(out.payload()).as("the flow went on at once").isEqualTo("order-7");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  down.meterRegistry()
                          .get("sluice.router.retries")
                          .tags("router", "deliver")
                          .counter()
                          .count()
                      >= 2);
    }
    assertThat(dir.resolve("out/order-7.txt")).doesNotExist();

    try (Application up =
        ConfigLoader.parse("app.yaml", yaml(true), dir, getClass().getClassLoader()).build()) {
      up.start();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Files.exists(dir.resolve("out/order-7.txt")));
      assertThat(dir.resolve("out/order-7.txt")).hasContent("order-7");
    }
  }

  @Test
  void aPersistentOneNeedsAName() {
    assertThat(
            Configs.rule(
                """
                flows:
                  - name: orders
                    processors:
                      - until-successful: { persistent: true }
                """,
                "flows[0].processors[0].until-successful.name"))
        .startsWith("is required with persistent: true");
  }
}
