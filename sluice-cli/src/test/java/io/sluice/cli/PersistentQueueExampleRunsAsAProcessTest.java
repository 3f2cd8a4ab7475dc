package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class PersistentQueueExampleRunsAsAProcessTest {

  @TempDir Path work;

  @Test
  void filesGoThroughThePersistentQueueOnTheEmbeddedStore() throws Exception {
    Files.copy(Path.of("../examples/persistent-queue.yaml"), work.resolve("persistent-queue.yaml"));
    Path orders = Files.createDirectories(work.resolve("orders"));
    for (int i = 0; i < 30; i++) {
      Files.writeString(orders.resolve(i + ".json"), "{\"id\":" + i + "}");
    }
    try (SluiceProcess sluice = SluiceProcess.start(work, "run", "persistent-queue.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  FileCopyExampleRunsAsAProcessTest.count(work.resolve("out")) == 30
                      || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
      Path database = work.resolve("data/sluice.db").toRealPath();
      assertThat(sluice.log())
          .contains("store: sqlite " + database + " (WAL, synchronous=FULL, schema v13)")
          .contains("vm-listener(persistent orders)");
    }
    for (int i = 0; i < 30; i++) {
      assertThat(work.resolve("out/" + i + ".json")).hasContent("{\"id\":" + i + "}");
    }
    assertThat(FileCopyExampleRunsAsAProcessTest.count(work.resolve("done"))).isEqualTo(30);
  }
}
