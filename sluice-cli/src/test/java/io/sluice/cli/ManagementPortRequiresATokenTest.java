package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.core.ConfigurationException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagementPortRequiresATokenTest {

  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path work;

  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withATokenMetricsAnswer401UnlessTheRequestCarriesItAndHealthStaysOpen() throws Exception {
    Path tokenFile = Files.writeString(work.resolve("token"), TOKEN + "\n");
    ManagementAccess access = ManagementAccess.of("127.0.0.1", tokenFile, false, Map.of());
    PrometheusMeterRegistry registry = ManagementServer.registry();
    registry.counter("sluice.test.counted").increment();
    try (ManagementServer server = ManagementServer.start("127.0.0.1", 0, registry, access)) {
      server.ready(List.of());
      int port = server.port();
      HttpResponse<String> none = get(port, "/metrics", null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"sluice\"");
      assertThat(none.body()).doesNotContain("sluice_test_counted");
      assertThat(get(port, "/metrics", "Bearer " + TOKEN + "x").statusCode()).isEqualTo(401);
      assertThat(get(port, "/metrics", "Basic " + TOKEN).statusCode()).isEqualTo(401);
      assertThat(get(port, "/metrics", "Bearer").statusCode()).isEqualTo(401);
      HttpResponse<String> admitted = get(port, "/metrics", "Bearer " + TOKEN);
      assertThat(admitted.statusCode()).isEqualTo(200);
      assertThat(admitted.body()).contains("sluice_test_counted_total 1.0");
      assertThat(get(port, "/health", null).statusCode()).isEqualTo(200);
      assertThat(get(port, "/other", "Bearer " + TOKEN).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void theTokenMayComeFromTheEnvironment() {
    ManagementAccess access =
        ManagementAccess.of(
            "127.0.0.1", null, false, Map.of(ManagementAccess.TOKEN_VARIABLE, TOKEN));
    assertThat(access.required()).isTrue();
    assertThat(access.admits("bearer " + TOKEN)).isTrue();
    assertThat(access.admits("Bearer " + TOKEN.substring(1))).isFalse();
  }

  @Test
  void aNonLoopbackAddressWithoutATokenIsRefusedUnlessAllowedOnPurpose() {
    assertThatThrownBy(() -> ManagementAccess.of("0.0.0.0", null, false, Map.of()))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("--management-host")
        .hasMessageContaining("0.0.0.0")
        .hasMessageContaining("--management-token-file");
    assertThat(ManagementAccess.of("0.0.0.0", null, true, Map.of()).required()).isFalse();
    assertThat(ManagementAccess.of("localhost", null, false, Map.of()).required()).isFalse();
    assertThat(
            ManagementAccess.of(
                    "0.0.0.0", null, false, Map.of(ManagementAccess.TOKEN_VARIABLE, TOKEN))
                .required())
        .isTrue();
  }

  @Test
  void aShortEmptyOrMissingTokenIsRefusedWithoutShowingIt() throws Exception {
    Path shortToken = Files.writeString(work.resolve("short"), "secret\n");
    assertThatThrownBy(() -> ManagementAccess.of("127.0.0.1", shortToken, false, Map.of()))
        .hasMessageContaining("--management-token-file")
        .hasMessageContaining("at least 16")
        .hasMessageNotContaining("secret");
    Path empty = Files.writeString(work.resolve("empty"), "\n");
    assertThatThrownBy(() -> ManagementAccess.of("127.0.0.1", empty, false, Map.of()))
        .hasMessageContaining("at least 16");
    assertThatThrownBy(
            () -> ManagementAccess.of("127.0.0.1", work.resolve("missing"), false, Map.of()))
        .hasMessageContaining("--management-token-file")
        .hasMessageContaining("readable file");
  }

  @Test
  void runRefusesANonLoopbackManagementPortWithoutATokenBeforeStartingAnything() throws Exception {
    Files.copy(Path.of("../examples/file-copy.yaml"), work.resolve("file-copy.yaml"));
    CliRun run =
        CliRun.of(
            "run",
            work.resolve("file-copy.yaml").toString(),
            "--management-port",
            "0",
            "--management-host",
            "0.0.0.0");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID);
    assertThat(run.err()).contains("--management-host").contains("not a loopback address");
  }
}
