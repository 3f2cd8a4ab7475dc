package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --log-format json} and {@code SLUICE_LOG_FORMAT}, as shipped (LogConfigurator). */
@Tag("crash") // starts Sluice processes: not in the fast suite
class LogsAreJsonWhenAskedTest {

  private static final String SECRET = "pw-\"quoted\"-4d1f9";

  @TempDir Path work;

  @Test
  void everyLineIsOneJsonObjectWithTheSecretsMasked() throws Exception {
    Files.writeString(
        work.resolve("app.yaml"),
        """
        flows:
          - name: ticks
            source:
              scheduler: { frequency: 200ms }
            processors:
              - logger: { message: "tick with ${secret:env:API_KEY}" }
              - expression: { expression: "1 / 0" }
        """);
    try (SluiceProcess sluice =
        SluiceProcess.startAsShipped(
            work, Map.of("API_KEY", SECRET), "run", "app.yaml", "--log-format", "json")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> sluice.log().contains("\"WARN\"") || !sluice.isAlive());
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as(sluice.log()).isZero();
      List<JsonNode> lines = lines(sluice.log());
      assertThat(lines).isNotEmpty();
      for (JsonNode line : lines) {
        assertThat(Instant.parse(line.get("time").asText())).isBefore(Instant.now());
        assertThat(line.get("level").asText()).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
        assertThat(line.get("logger").asText()).isNotBlank();
        assertThat(line.get("thread").asText()).isNotBlank();
        assertThat(line.has("message")).isTrue();
      }
      assertThat(lines)
          .anySatisfy(
              line ->
                  assertThat(line.get("message").asText()).startsWith("tick with ").contains("*"));
      assertThat(lines)
          .anySatisfy(
              line ->
                  assertThat(line.get("message").asText())
                      .contains("Flow 'ticks' failed")
                      .contains("'1 / 0'"));
      assertThat(sluice.log()).doesNotContain("4d1f9");
    }
  }

  @Test
  void theEnvironmentChoosesItTooAndAnUnknownFormatIsRefused() throws Exception {
    Files.writeString(work.resolve("app.yaml"), "flows: [ { name: a } ]\n");
    try (SluiceProcess bad =
        SluiceProcess.startAsShipped(
            work, Map.of("SLUICE_LOG_FORMAT", "xml"), "validate", "app.yaml")) {
      assertThat(bad.awaitExit(60)).isEqualTo(ExitCodes.INVALID);
      assertThat(bad.log())
          .contains("--log-format (or SLUICE_LOG_FORMAT) must be text or json, was 'xml'");
    }
    try (SluiceProcess sluice =
        SluiceProcess.startAsShipped(
            work, Map.of("SLUICE_LOG_FORMAT", "json"), "batch", "list", "app.yaml")) {
      assertThat(sluice.awaitExit(60)).as(sluice.log()).isZero();
    }
  }

  /** Every line of the log that is not the command's own output, each a JSON object. */
  private static List<JsonNode> lines(String log) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : log.lines().toList()) {
      if (!line.isBlank()) {
        JsonNode node = json.readTree(line);
        assertThat(node.isObject()).as(line).isTrue();
        lines.add(node);
      }
    }
    return lines;
  }
}
