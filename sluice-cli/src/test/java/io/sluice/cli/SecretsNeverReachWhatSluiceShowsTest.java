package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.config.PropertySources;
import io.sluice.config.Secrets;
import io.sluice.core.app.Application;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A value read by a {@code ${secret:...}} placeholder never reaches what Sluice shows: the errors
 * the command prints, its log lines and its {@code /metrics} page show {@code ******} instead.
 */
class SecretsNeverReachWhatSluiceShowsTest {

  @TempDir Path work;

  private Path secretFile(String name, String value) throws Exception {
    return Files.writeString(work.resolve(name), value + "\n");
  }

  private Path config(String yaml) throws Exception {
    return Files.writeString(work.resolve("app.yaml"), yaml);
  }

  @Test
  void aSecretQuotedByAStoreErrorIsMaskedInTheErrorTheCommandPrints() throws Exception {
    String user = "db-user-Xq81-secret";
    secretFile("db-user", user);
    Path app =
        config(
            """
            sluice:
              store:
                url: jdbc:postgresql://127.0.0.1:1/sluice
                user: ${secret:file:db-user}
                connectTimeout: 2s
            flows: [ { name: a } ]
            """);

    CliRun run = CliRun.of("jobs", "stats", app.toString());

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err()).contains("as " + Secrets.MASK).doesNotContain(user);
  }

  @Test
  void aSecretThatBreaksARuleIsMaskedInTheProblemsValidatePrints() throws Exception {
    String name = "-flow-name-Zr55-secret";
    secretFile("name", name);
    Path app = config("flows:\n  - name: ${secret:file:name}\n");

    CliRun run = CliRun.of("validate", app.toString());

    run.assertRefused("app.yaml:2:5: flows[0].name: value '******' must match the pattern");
    assertThat(run.err() + run.out()).doesNotContain(name);
  }

  @Test
  void aSecretInWhatACommandPrintsIsMasked() throws Exception {
    String name = "FlowName-Pp19-secret";
    secretFile("name", name);
    Path app = config("flows:\n  - name: ${secret:file:name}\n");

    CliRun run = CliRun.of("validate", app.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("1 flow(s): ****** (auto)").doesNotContain(name);
  }

  @Test
  void aSecretPrintedInPiecesIsStillMaskedWhole() {
    Secrets.register("pieces-Jj40-secret");
    StringWriter out = new StringWriter();
    PrintWriter writer = MaskingWriter.printWriter(out);

    writer.print("a pieces-Jj40");
    writer.print("-secret b");
    writer.println();
    writer.print("\rprogress 1");
    writer.flush();

    assertThat(out.toString()).isEqualTo("a ****** b" + System.lineSeparator() + "\rprogress 1");
  }

  @Test
  void aSecretInALogLineIsMaskedByTheCommandsEncoder() throws Exception {
    String token = "token-Qm02-secret";
    secretFile("token", token);
    Path app =
        config(
            """
            flows:
              - name: ticker
                source:
                  scheduler:
                    frequency: 10ms
                processors:
                  - logger: { message: "calling with ${secret:file:token}" }
            """);
    String log = captureLog(app, captured -> captured.contains("calling with " + Secrets.MASK));

    assertThat(log).doesNotContain(token);
  }

  @Test
  void theEffectiveConfigurationLoggedAtStartShowsTheSecretMasked() throws Exception {
    String token = "hook-Wd71-secret";
    secretFile("hook", token);
    Path app =
        config(
            """
            flows:
              - name: hooks
                source:
                  http-listener:
                    host: 127.0.0.1
                    port: 0
                    path: /hooks/${secret:file:hook}
            """);

    String log = captureLog(app, captured -> captured.contains("Flow 'hooks' started"));

    assertThat(log)
        .contains("Flow 'hooks' started: source=http-listener(127.0.0.1:0/hooks/******)")
        .doesNotContain(token);
  }

  /**
   * Starts the application of {@code app} with the command's {@link MaskingEncoder} writing the
   * log, until a line {@code seen} accepts was written; returns what was written.
   */
  private static String captureLog(Path app, Predicate<String> seen) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    MaskingEncoder encoder = new MaskingEncoder();
    encoder.setContext(context);
    encoder.setPattern("%logger - %msg%n");
    encoder.start();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setEncoder(encoder);
    appender.setOutputStream(captured);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    try (Application application = load(app).build()) {
      application.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> seen.test(text(captured)));
      application.stop();
    } finally {
      root.detachAppender(appender);
      appender.stop();
    }
    return text(captured);
  }

  @Test
  void aSecretInAMetricTagIsMaskedOnTheScrapedMetricsPage() throws Exception {
    String flow = "FlowName-Kv33-secret";
    secretFile("flow", flow);
    Path app =
        config(
            """
            flows:
              - name: ${secret:file:flow}
                source:
                  scheduler:
                    frequency: 10ms
            """);
    PrometheusMeterRegistry registry = ManagementServer.registry();
    String body;
    try (Application application = load(app).meterRegistry(registry).build();
        ManagementServer server =
            ManagementServer.start("127.0.0.1", 0, registry, ManagementAccess.OPEN)) {
      application.start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> registry.scrape().contains("sluice_flow_messages_total"));
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      body = response.body();
      application.stop();
    }
    assertThat(body)
        .contains("sluice_flow_messages_total{flow=\"" + Secrets.MASK + "\"")
        .doesNotContain(flow);
  }

  private static Application.Builder load(Path app) {
    return ConfigLoader.read(
            app,
            SecretsNeverReachWhatSluiceShowsTest.class.getClassLoader(),
            PropertySources.system())
        .application();
  }

  private static String text(ByteArrayOutputStream captured) {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8);
    }
  }
}
