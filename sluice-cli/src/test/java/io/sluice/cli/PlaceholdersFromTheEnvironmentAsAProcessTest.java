package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice validate} and {@code sluice run} as processes with a real environment: an {@code
 * ${env:...}} and a {@code ${secret:env:...}} found there, a properties file given with {@code
 * --properties}, and the secret (a webhook's path) absent from the log and from {@code /metrics}.
 */
@Tag("crash") // starts Sluice processes and stops them: not in the fast suite
class PlaceholdersFromTheEnvironmentAsAProcessTest {

  private static final String TOKEN = "hk-7f3a9c2e-secret-token";

  @TempDir Path work;

  @BeforeEach
  void writeTheConfiguration() throws Exception {
    Files.writeString(
        work.resolve("app.yaml"),
        """
        flows:
          - name: ${FLOW_NAME}
            source:
              http-listener:
                host: ${env:LISTEN_HOST}
                port: ${HTTP_PORT}
                path: /hooks/${secret:env:HOOK_TOKEN}
            processors:
              - logger: { message: "hook called on #[attributes.path]" }
        """);
    Files.writeString(work.resolve("app.properties"), "FLOW_NAME=hooks\nHTTP_PORT=0\n");
  }

  @Test
  void validateFindsTheEnvironmentOrNamesWhatIsMissingAtItsLine() throws Exception {
    try (SluiceProcess valid =
        SluiceProcess.start(
            work,
            Map.of("HOOK_TOKEN", TOKEN, "LISTEN_HOST", "127.0.0.1"),
            "validate",
            "app.yaml",
            "--properties",
            "app.properties")) {
      assertThat(valid.awaitExit(60)).as(valid.log()).isZero();
      assertThat(valid.log()).contains("app.yaml is valid: 1 flow(s): hooks (auto)");
    }
    try (SluiceProcess invalid =
        SluiceProcess.start(
            work,
            Map.of("LISTEN_HOST", "127.0.0.1"),
            "validate",
            "app.yaml",
            "--properties",
            "app.properties")) {
      assertThat(invalid.awaitExit(60)).as(invalid.log()).isEqualTo(ExitCodes.INVALID);
      assertThat(invalid.log())
          .contains(
              "app.yaml:7:22: flows[0].source.http-listener.path: value"
                  + " '${secret:env:HOOK_TOKEN}' is not set: the environment has no variable"
                  + " HOOK_TOKEN; set it, or give a default after a colon:"
                  + " ${secret:env:HOOK_TOKEN:default}");
    }
  }

  @Test
  // As shipped: the command's own logging (LogConfigurator), not the tests' logback-test.xml.
  void runServesTheSecretPathWithoutEverShowingIt() throws Exception {
    try (SluiceProcess sluice =
        SluiceProcess.startAsShipped(
            work,
            Map.of("HOOK_TOKEN", TOKEN, "LISTEN_HOST", "127.0.0.1"),
            "run",
            "app.yaml",
            "--properties",
            "app.properties",
            "--management-port",
            "0")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> sluice.log().contains("Metrics at") || !sluice.isAlive());
      assertThat(sluice.isAlive()).as("still running; log:%n%s", sluice.log()).isTrue();
      Matcher listening =
          Pattern.compile("HTTP server listening on 127\\.0\\.0\\.1:([0-9]+)")
              .matcher(sluice.log());
      assertThat(listening.find()).as(sluice.log()).isTrue();
      HttpResponse<String> hook =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + listening.group(1) + "/hooks/" + TOKEN))
                      .POST(HttpRequest.BodyPublishers.ofString("{}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(hook.statusCode()).as(sluice.log()).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> sluice.log().contains("hook called on /hooks/******"));
      String metrics = FileCopyExampleRunsAsAProcessTest.scrape(sluice);
      assertThat(metrics).contains("flow=\"hooks\"").doesNotContain(TOKEN);
      sluice.terminate();
      assertThat(sluice.awaitExit(60)).as("exit code; log:%n%s", sluice.log()).isZero();
      assertThat(sluice.log())
          .contains(
              "i.s.c.i.ApplicationRuntime - Flow 'hooks' started:"
                  + " source=http-listener(127.0.0.1:0/hooks/******)")
          .doesNotContain(TOKEN);
    }
  }
}
