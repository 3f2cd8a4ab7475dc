package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.batch.BatchInstances;
import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.app.Operations;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import io.sluice.jobs.JobStores;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import io.sluice.testkit.PostgresTestDatabase;
import io.sluice.testkit.TcpProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's API beyond flows and queues, over a real socket on a real store: a flow's rate,
 * latency and limit, the jobs (waiting, running, incidents and their retry, nodes and leases), the
 * batch instances, the page's resources, and a PostgreSQL store that goes away and comes back.
 */
class TheConsoleApiShowsJobsAndBatchesTest {

  private static final String TOKEN = "0123456789abcdef-console-token";

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  @TempDir Path work;

  private final HttpClient client = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode read(int port, String path) throws Exception {
    HttpResponse<String> response = get(port, path, TOKEN);
    assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }

  private HttpResponse<String> act(int port, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private ManagementServer server() throws Exception {
    Path tokenFile = Files.writeString(work.resolve("token"), TOKEN);
    return ManagementServer.start(
        "127.0.0.1",
        0,
        ManagementServer.registry(),
        ManagementAccess.of("127.0.0.1", tokenFile, false, Map.of()));
  }

  @Test
  void jobsAreShownAndAnIncidentIsRetriedOnceWithTheToken() throws Exception {
    try (ManagementServer server = server();
        Application app =
            Application.builder()
                .storage(StorageConfig.builder().dataDir(work.resolve("data")).build())
                .meterRegistry(ManagementServer.registry())
                .flow(
                    Flow.builder("work")
                        .processor(
                            Processor.of(
                                ProcessingType.BLOCKING_IO,
                                m -> {
                                  LockSupport.parkNanos(1_000_000);
                                  return m;
                                }))
                        .build())
                .build()) {
      app.start();
      JobStore jobs = JobStores.open(app.storage(), app.storedValues());
      server.ready(
          List.of(),
          new Operations(app),
          jobs,
          () ->
              BatchInstances.open(
                  app.storageConfig(), app.storedValues(), getClass().getClassLoader()));
      int port = server.port();

      List<CompletableFuture<Message>> sent = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        sent.add(app.send("work", Message.of(i)));
      }
      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
      JsonNode flow = read(port, "/api/flows").get(0);
      assertThat(flow.get("completed").asLong()).isEqualTo(200);
      assertThat(flow.get("p50Millis").asDouble()).as("%s", flow).isGreaterThanOrEqualTo(1.0);
      assertThat(flow.get("p99Millis").asDouble())
          .isGreaterThanOrEqualTo(flow.get("p50Millis").asDouble());
      assertThat(flow.get("limit").asInt()).isPositive();
      assertThat(flow.has("rate")).isTrue();

      NodeLease node = jobs.register("node-1", Duration.ofMinutes(1));
      long failing = jobs.create(NewJob.of("mail", "to bob").withMaxRetries(0));
      ClaimedJob claimed = jobs.claim(node, java.util.Set.of("mail"), 1).getFirst();
      jobs.fail(node, claimed.id(), "smtp <b>refused</b>", jobs.clock().instant());
      jobs.create(NewJob.of("mail", "to ann").withPriority(5));
      jobs.create(NewJob.of("report", "monthly"));
      long held = jobs.create(NewJob.of("sync", "x"));
      jobs.claim(node, java.util.Set.of("sync"), 1);

      assertThat(get(port, "/api/jobs", null).statusCode()).isEqualTo(401);
      JsonNode overview = read(port, "/api/jobs");
      assertThat(overview.get("waiting").toString())
          .isEqualTo(
              "[{\"type\":\"mail\",\"priority\":5,\"waiting\":1},"
                  + "{\"type\":\"report\",\"priority\":0,\"waiting\":1}]");
      assertThat(overview.get("running").toString())
          .isEqualTo("[{\"node\":\"node-1\",\"running\":1}]");
      JsonNode incident = overview.get("incidents").get(0);
      assertThat(incident.get("id").asLong()).isEqualTo(failing);
      assertThat(incident.get("error").asText()).isEqualTo("smtp <b>refused</b>");
      assertThat(incident.get("attempts").asInt()).isEqualTo(1);
      JsonNode nodeSeen = overview.get("nodes").get(0);
      assertThat(nodeSeen.get("node").asText()).isEqualTo("node-1");
      assertThat(nodeSeen.get("live").asBoolean()).isTrue();
      assertThat(nodeSeen.get("leaseLeftMillis").asLong()).isBetween(1L, 60_000L);
      assertThat(read(port, "/api/jobs/" + held).get("state").asText()).isEqualTo("running");
      assertThat(read(port, "/api/jobs/list?state=waiting&type=mail")).hasSize(1);
      assertThat(read(port, "/api/jobs/stats").get("types")).hasSize(3);

      String retry = "/api/jobs/" + failing + "/retry";
      assertThat(act(port, retry, null).statusCode()).isEqualTo(401);
      assertThat(jobs.find(failing).orElseThrow().state())
          .as("nothing done without the token")
          .isInstanceOf(JobState.Incident.class);
      assertThat(act(port, retry, TOKEN).statusCode()).isEqualTo(200);
      assertThat(jobs.find(failing).orElseThrow().state()).isInstanceOf(JobState.Waiting.class);
      HttpResponse<String> again = act(port, retry, TOKEN);
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(again.body()).contains("is waiting, not an incident").contains("nothing changed");
      HttpResponse<String> gone = act(port, "/api/jobs/999999/retry", TOKEN);
      assertThat(gone.statusCode()).isEqualTo(409);
      assertThat(gone.body()).contains("completed meanwhile").contains("nothing changed");
      assertThat(act(port, "/api/jobs/x/retry", TOKEN).statusCode()).isEqualTo(400);
      assertThat(get(port, "/api/jobs/999999", TOKEN).statusCode()).isEqualTo(404);

      assertThat(read(port, "/api/batch")).isEmpty();
      assertThat(act(port, "/api/batch/7/stop", TOKEN).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void thePageIsAFixedSetOfResourcesWithItsPolicyAndNothingElse() throws Exception {
    try (ManagementServer server = server()) {
      int port = server.port();
      HttpResponse<String> page = get(port, "/", null);
      assertThat(page.statusCode()).as("the page holds no data: no token needed").isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(page.headers().firstValue("Content-Security-Policy"))
          .hasValueSatisfying(p -> assertThat(p).startsWith("default-src 'self'"));
      assertThat(page.body()).contains("<script src=\"/console/console.js\"");
      assertThat(get(port, "/console/console.js", null).headers().firstValue("Content-Type"))
          .hasValue("text/javascript; charset=utf-8");
      assertThat(get(port, "/console/console.css", null).headers().firstValue("Content-Type"))
          .hasValue("text/css; charset=utf-8");
      for (String path :
          List.of(
              "/console/../version.properties",
              "/console/%2e%2e/version.properties",
              "/console/demo.yaml",
              "/io/sluice/cli/console/index.html",
              "/favicon.ico",
              "/console/console.js/x")) {
        HttpResponse<String> response = get(port, path, null);
        assertThat(response.statusCode()).as(path).isEqualTo(404);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
      }
      assertThat(act(port, "/", null).statusCode()).isEqualTo(405);
    }
  }

  @Test
  void aPostgresStoreThatGoesAwayIsAnswered503WithTheReasonUntilItReturns() throws Exception {
    try (TcpProxy proxy = TcpProxy.to(PostgresTestDatabase.HOST, PostgresTestDatabase.PORT);
        ManagementServer server = server();
        Application app = Application.builder().storage(DB.configThrough(proxy)).build()) {
      app.start();
      JobStore jobs = JobStores.open(app.storage(), app.storedValues());
      server.ready(List.of(), new Operations(app), jobs, null);
      int port = server.port();
      assertThat(read(port, "/api/jobs").get("incidents")).isEmpty();

      proxy.cut();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> get(port, "/api/jobs", TOKEN).statusCode() == 503);
      HttpResponse<String> down = get(port, "/api/jobs", TOKEN);
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(new ObjectMapper().readTree(down.body()).get("error").asText()).isNotBlank();
      assertThat(get(port, "/api/flows", TOKEN).statusCode())
          .as("what needs no store still answers")
          .isEqualTo(200);

      proxy.restore();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> get(port, "/api/jobs", TOKEN).statusCode() == 200);
    }
  }
}
