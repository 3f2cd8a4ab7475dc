package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/csv-to-json.yaml as a user runs it: each CSV file of a directory becomes a JSON array,
 * its numbers typed; a file that is not CSV is reported with its line and column.
 */
@Tag("crash") // starts a Sluice process: not in the fast suite
class CsvToJsonExampleRunsAsAProcessTest {

  @TempDir Path work;

  @Test
  void everyCsvFileBecomesAJsonArrayAndABrokenOneIsReported() throws Exception {
    Files.copy(Path.of("../examples/csv-to-json.yaml"), work.resolve("csv-to-json.yaml"));
    Path in = Files.createDirectories(work.resolve("in"));
    Files.writeString(in.resolve("order-1.csv"), "sku,qty,price\nA-1,2,9.50\nB-7,1,12\n");
    StringBuilder big = new StringBuilder("sku,qty,price\n");
    for (int i = 0; i < 5_000; i++) {
      big.append("S-").append(i).append(',').append(i % 7).append(",1.25\n");
    }
    Files.writeString(in.resolve("order-2.csv"), big);
    Files.writeString(in.resolve("broken.csv"), "sku,qty,price\n\"A-1,2,9.50\n");
    try (SluiceProcess sluice = SluiceProcess.start(work, "run", "csv-to-json.yaml")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  FileCopyExampleRunsAsAProcessTest.count(work.resolve("done")) == 3
                      || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("log:%n%s", sluice.log()).isTrue();
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
    }
    assertThat(Files.readString(work.resolve("out/order-1.json")).replaceAll("\\s", ""))
        .isEqualTo(
            "[{\"sku\":\"A-1\",\"qty\":2,\"price\":9.50},{\"sku\":\"B-7\",\"qty\":1,\"price\":12}]");
    String second = Files.readString(work.resolve("out/order-2.json")).replaceAll("\\s", "");
    assertThat(second).startsWith("[{\"sku\":\"S-0\",\"qty\":0,\"price\":1.25},{\"sku\":\"S-1\"");
    assertThat(second).endsWith("{\"sku\":\"S-4999\",\"qty\":1,\"price\":1.25}]");
    assertThat(work.resolve("failed/broken.csv.txt"))
        .content()
        .startsWith("broken.csv is not valid CSV: ")
        .contains("at line 3, column 1");
    assertThat(work.resolve("out/broken.json")).doesNotExist();
  }
}
