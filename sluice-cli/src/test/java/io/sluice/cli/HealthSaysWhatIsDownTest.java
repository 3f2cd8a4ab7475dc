package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /health/live, /health/ready and /health over a real socket. */
class HealthSaysWhatIsDownTest {

  private static final String TOKEN = "0123456789abcdef-health";

  @TempDir Path work;

  private static HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try (HttpClient client = HttpClient.newHttpClient()) {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    return new ObjectMapper().readTree(response.body());
  }

  @Test
  void readyIs503WhileStartingAndWhileAPartIsDownAndLiveStaysUp() throws Exception {
    AtomicBoolean queueUp = new AtomicBoolean(true);
    HealthContributor queue =
        HealthContributor.of(
            "queue q",
            () ->
                List.of(
                    queueUp.get()
                        ? HealthCheck.up("queue q", "2 consumer(s) taking")
                        : HealthCheck.down("queue q", "its last take failed: disk I/O error")));
    try (ManagementServer server =
        ManagementServer.start(
            "127.0.0.1", 0, ManagementServer.registry(), ManagementAccess.OPEN)) {
      int port = server.port();
      HttpResponse<String> starting = get(port, "/health/ready", null);
      assertThat(starting.statusCode()).isEqualTo(503);
      assertThat(json(starting).get("checks").get(0).get("detail").asText()).isEqualTo("starting");
      assertThat(get(port, "/health/live", null).statusCode()).isEqualTo(200);

      server.ready(List.of(queue));
      HttpResponse<String> ready = get(port, "/health/ready", null);
      assertThat(ready.statusCode()).isEqualTo(200);
      JsonNode up = json(ready);
      assertThat(up.get("status").asText()).isEqualTo("UP");
      assertThat(up.get("checks").get(0).get("component").asText()).isEqualTo("queue q");
      assertThat(up.get("checks").get(0).get("detail").asText()).isEqualTo("2 consumer(s) taking");

      queueUp.set(false);
      // answers are kept a second: the next one may be the cached UP, then DOWN
      HttpResponse<String> down = get(port, "/health/ready", null);
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (down.statusCode() == 200 && System.nanoTime() < deadline) {
        down = get(port, "/health/ready", null);
      }
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(json(down).get("checks").get(0).get("detail").asText())
          .isEqualTo("its last take failed: disk I/O error");
      HttpResponse<String> both = get(port, "/health", null);
      assertThat(both.statusCode()).isEqualTo(503);
      assertThat(json(both).get("checks")).hasSize(2);
      assertThat(get(port, "/health/live", null).statusCode()).isEqualTo(200);
      assertThat(get(port, "/health/other", null).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void aCheckThatHangsIsDownAfterTheDeadlineAndDoesNotHoldTheAnswer() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    HealthContributor hanging =
        HealthContributor.of(
            "store",
            () -> {
              try {
                never.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return List.of();
            });
    try (ManagementServer server =
        ManagementServer.start(
            "127.0.0.1", 0, ManagementServer.registry(), ManagementAccess.OPEN)) {
      server.ready(List.of(hanging));
      long start = System.nanoTime();
      HttpResponse<String> answer = get(server.port(), "/health/ready", null);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(answer.statusCode()).isEqualTo(503);
      assertThat(json(answer).get("checks").get(0).get("detail").asText())
          .isEqualTo("did not answer within 3000 ms");
      assertThat(millis).isLessThan(ManagementServer.HEALTH_DEADLINE.toMillis() + 2_000);
    }
  }

  @Test
  void aCheckThatAnInterruptCannotEndStillAnswersByTheDeadlineAndIsNotStartedTwice()
      throws Exception {
    Object held = new Object(); // entering a held monitor ignores interrupts, as a socket read does
    java.util.concurrent.atomic.AtomicInteger started =
        new java.util.concurrent.atomic.AtomicInteger();
    HealthContributor stuck =
        HealthContributor.of(
            "store",
            () -> {
              started.incrementAndGet();
              synchronized (held) {
                return List.of(HealthCheck.up("store", "answered at last"));
              }
            });
    try (ManagementServer server =
        ManagementServer.start(
            "127.0.0.1", 0, ManagementServer.registry(), ManagementAccess.OPEN)) {
      server.ready(List.of(stuck));
      synchronized (held) {
        for (int probe = 0; probe < 2; probe++) {
          long start = System.nanoTime();
          HttpResponse<String> answer = get(server.port(), "/health/ready", null);
          long millis = (System.nanoTime() - start) / 1_000_000;
          assertThat(answer.statusCode()).isEqualTo(503);
          assertThat(millis).isLessThan(ManagementServer.HEALTH_DEADLINE.toMillis() + 2_000);
        }
      }
      assertThat(started.get())
          .as("the hung check is waited for again, not started again")
          .isEqualTo(1);
    }
  }

  @Test
  void withATokenSetAProbeWithoutItSeesStatesButNoDetails() throws Exception {
    Path tokenFile = Files.writeString(work.resolve("token"), TOKEN);
    ManagementAccess access = ManagementAccess.of("127.0.0.1", tokenFile, false, Map.of());
    try (ManagementServer server =
        ManagementServer.start("127.0.0.1", 0, ManagementServer.registry(), access)) {
      server.ready(
          List.of(
              HealthContributor.of(
                  "store", () -> List.of(HealthCheck.up("store", "sqlite /srv/secret/place.db")))));
      HttpResponse<String> probe = get(server.port(), "/health/ready", null);
      assertThat(probe.statusCode()).isEqualTo(200);
      assertThat(probe.body()).contains("\"store\"").doesNotContain("/srv/secret");
      assertThat(get(server.port(), "/health/ready", TOKEN).body()).contains("/srv/secret");
    }
  }
}
