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
 * The groups a persistent aggregate is building live in the SQLite store: members that came before
 * a stop are in the group completed after it, and a member delivered again after the restart is not
 * counted twice.
 */
class APersistentAggregateKeepsItsGroupsAcrossARestartTest {

  @TempDir Path dir;

  private Application app() {
    String yaml =
        """
        sluice: { store: { dataDir: "%s" } }
        flows:
          - name: lines
            processors:
              - aggregate:
                  name: orders
                  persistent: true
                  processors:
                    - set-payload: { value: "#[payload.toString()]" }
                    - file-write: { directory: "%s", fileName: "#[vars.correlationId].txt", mode: APPEND }
        """
            .formatted(dir.resolve("data"), dir.resolve("out"));
    Application app =
        ConfigLoader.parse("app.yaml", yaml, dir, getClass().getClassLoader()).build();
    app.start();
    return app;
  }

  private static void part(Application app, long sequence) throws Exception {
    Message part =
        Message.of("line " + sequence)
            .withVariable("correlationId", "order-5")
            .withVariable("correlationSequence", sequence)
            .withVariable("correlationGroupSize", 3);
    app.send("lines", part).get(10, TimeUnit.SECONDS);
  }

  @Test
  void membersBeforeAStopAndAfterItMakeOneGroupEachOnce() throws Exception {
    try (Application before = app()) {
      part(before, 1);
      part(before, 2);
    }
    assertThat(dir.resolve("out/order-5.txt")).doesNotExist();
    try (Application after = app()) {
      part(after, 2);
      part(after, 3);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> Files.exists(dir.resolve("out/order-5.txt")));
      part(after, 3);
      assertThat(
              after
                  .meterRegistry()
                  .get("sluice.router.duplicates")
                  .tags("router", "orders")
                  .counter()
                  .count())
          .as("line 2 again, and line 3 again after its group was handed over")
          .isEqualTo(2);
    }
    assertThat(dir.resolve("out/order-5.txt")).hasContent("[line 1, line 2, line 3]");
  }
}
