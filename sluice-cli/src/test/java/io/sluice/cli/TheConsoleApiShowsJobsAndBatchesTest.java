package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchLauncher;
import io.sluice.batch.BatchState;
import io.sluice.batch.BatchStep;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's API beyond flows and queues, over a real socket on a real store: a flow's rate,
 * latency and limit, the jobs (waiting, running, incidents and their retry, nodes and leases), the
 * batch instances (their failed records, a resume), the page's resources, and a PostgreSQL store
 * that goes away and comes back.
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

  /** An application on an embedded store in {@code work/data}, not started. */
  private Application embedded() {
    return Application.builder()
        .storage(StorageConfig.builder().dataDir(work.resolve("data")).build())
        .build();
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
                  app.storageConfig(), app.storedValues(), getClass().getClassLoader()),
          null);
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
      assertThat(get(port, "/api/jobs/history", TOKEN).statusCode()).isEqualTo(200);
      assertThat(act(port, "/api/batch/7/stop", TOKEN).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void theHistoryIsFilteredSearchedAndPagedAndEveryIncidentOfATypeIsRetriedAtOnce()
      throws Exception {
    try (ManagementServer server = server();
        Application app = embedded()) {
      app.start();
      JobStore jobs = JobStores.open(app.storage(), app.storedValues());
      server.ready(List.of(), new Operations(app), jobs, null, null);
      int port = server.port();
      NodeLease node = jobs.register("node-1", Duration.ofMinutes(1));
      // Completed, in this order: mail to bob, report for bob, mail to ann; then three incidents.
      for (String[] job :
          List.of(
              new String[] {"mail", "to bob"},
              new String[] {"report", "monthly for bob"},
              new String[] {"mail", "to ann"})) {
        jobs.create(NewJob.of(job[0], job[1]));
        long id = jobs.claim(node, java.util.Set.of(job[0]), 1).getFirst().id();
        assertThat(jobs.complete(node, List.of(id))).containsExactly(id);
      }
      for (String to : List.of("carol", "dave")) {
        jobs.create(NewJob.of("mail", "to " + to).withMaxRetries(0));
        long id = jobs.claim(node, java.util.Set.of("mail"), 1).getFirst().id();
        jobs.fail(node, id, "smtp refused " + to.toUpperCase(), jobs.clock().instant());
      }
      jobs.create(NewJob.of("report", "weekly").withMaxRetries(0));
      long report = jobs.claim(node, java.util.Set.of("report"), 1).getFirst().id();
      jobs.fail(node, report, "no data", jobs.clock().instant());

      String history = "/api/jobs/history";
      assertThat(get(port, history, null).statusCode()).isEqualTo(401);
      JsonNode all = read(port, history);
      assertThat(all.get("count").asInt()).isEqualTo(6);
      assertThat(all.get("retention").asText()).isEqualTo("PT168H");
      assertThat(all.get("next").isNull()).isTrue();
      assertThat(payloads(read(port, history + "?type=mail&state=completed")))
          .containsExactly("to ann", "to bob");
      assertThat(payloads(read(port, history + "?q=BOB")))
          .as("a search over the payload, case ignored")
          .containsExactly("monthly for bob", "to bob");
      JsonNode refused = read(port, history + "?type=mail&state=failed&q=refused%20dave");
      assertThat(payloads(refused)).as("a search over the error").containsExactly("to dave");
      assertThat(refused.get("history").get(0).get("error").asText())
          .isEqualTo("smtp refused DAVE");
      assertThat(refused.get("history").get(0).get("node").asText()).isEqualTo("node-1");
      assertThat(read(port, history + "?type=report&q=refused").get("count").asInt()).isZero();

      JsonNode first = read(port, history + "?type=mail&max=2");
      assertThat(payloads(first)).containsExactly("to dave", "to carol");
      long next = first.get("next").asLong();
      assertThat(next).isEqualTo(first.get("history").get(1).get("id").asLong());
      JsonNode rest = read(port, history + "?type=mail&max=2&before=" + next);
      assertThat(payloads(rest)).containsExactly("to ann", "to bob");
      JsonNode last = read(port, history + "?type=mail&max=2&before=" + rest.get("next").asLong());
      assertThat(last.get("count").asInt()).isZero();
      assertThat(last.get("next").isNull()).isTrue();
      for (String bad :
          List.of(
              "?state=running",
              "?before=x",
              "?before=-1",
              "?max=0",
              "?max=1001",
              "?max=x",
              "?type=no%20spaces")) {
        HttpResponse<String> answer = get(port, history + bad, TOKEN);
        assertThat(answer.statusCode()).as(bad).isEqualTo(400);
        assertThat(answer.body()).contains("state completed or failed");
      }

      String retry = "/api/jobs/retry?type=mail&retries=1";
      assertThat(act(port, retry, null).statusCode()).isEqualTo(401);
      assertThat(jobs.incidents(10)).as("nothing done without the token").hasSize(3);
      assertThat(act(port, "/api/jobs/retry", TOKEN).statusCode()).isEqualTo(400);
      assertThat(act(port, "/api/jobs/retry?type=mail&retries=-1", TOKEN).statusCode())
          .isEqualTo(400);
      HttpResponse<String> none = act(port, "/api/jobs/retry?type=sms", TOKEN);
      assertThat(none.statusCode()).isEqualTo(409);
      assertThat(none.body()).contains("no incident of type 'sms'; nothing changed");
      HttpResponse<String> retried = act(port, retry, TOKEN);
      assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
      JsonNode answer = new ObjectMapper().readTree(retried.body());
      assertThat(answer.get("retried").asInt()).isEqualTo(2);
      assertThat(answer.get("message").asText())
          .isEqualTo("2 incident(s) of type 'mail' wait again, due now, with 1 retries");
      assertThat(jobs.incidents(10)).as("another type's incident is left").hasSize(1);
      assertThat(act(port, retry, TOKEN).statusCode()).as("none left").isEqualTo(409);

      List<String> ran = java.util.Collections.synchronizedList(new ArrayList<>());
      try (io.sluice.jobs.JobExecutor executor =
          io.sluice.jobs.JobExecutor.builder(jobs)
              .handler("mail", job -> ran.add(String.valueOf(job.payload())))
              .build()) {
        executor.start();
        await()
            .atMost(Duration.ofSeconds(30))
            .alias("the retried incidents ran and completed")
            .until(
                () -> read(port, history + "?type=mail&state=completed").get("count").asInt() == 4);
      }
      assertThat(ran).containsExactlyInAnyOrder("to carol", "to dave");
      assertThat(payloads(read(port, history + "?type=mail&state=completed&max=2")))
          .containsExactlyInAnyOrder("to carol", "to dave");
    }
  }

  private static List<String> payloads(JsonNode page) {
    return page.get("history").findValues("payload").stream().map(JsonNode::asText).toList();
  }

  @Test
  void anInstancesFailedRecordsArePagedAndAStoppedOneIsResumedOnceWithTheToken() throws Exception {
    // Every 100th record lacks its amount: 20 bad lines, record i on line i + 1.
    StringBuilder lines = new StringBuilder("id,amount\n");
    for (int i = 1; i <= 2_000; i++) {
      lines.append(i % 100 == 0 ? i + "\n" : i + ",1\n");
    }
    Path csv = Files.writeString(work.resolve("orders.csv"), lines);
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    AtomicLong seen = new AtomicLong();
    BatchJob job =
        BatchJob.builder("orders")
            .input(BatchInput.csv(csv))
            .maxFailedRecords(BatchJob.UNLIMITED)
            .step(
                BatchStep.builder("gate")
                    .processor(
                        Processor.of(
                            ProcessingType.CPU_LITE,
                            m -> {
                              if (seen.incrementAndGet() == 500) {
                                reached.countDown();
                                open.await(30, TimeUnit.SECONDS);
                              }
                              return m;
                            }))
                    .build())
            .build();
    BatchLauncher launcher = new BatchLauncher(List.of(job));
    try (ManagementServer server = server();
        Application app = embedded()) {
      app.start();
      launcher.bind(app);
      Supplier<BatchInstances> instances =
          () ->
              BatchInstances.open(
                  app.storageConfig(), app.storedValues(), getClass().getClassLoader());
      server.ready(List.of(), new Operations(app), null, instances, launcher);
      int port = server.port();
      assertThat(get(port, "/api/jobs/history", TOKEN).statusCode())
          .as("no job store (memory): as every jobs path")
          .isEqualTo(404);
      assertThat(act(port, "/api/jobs/retry?type=mail", TOKEN).statusCode()).isEqualTo(404);
      BatchEngine.Execution execution = launcher.start("orders", null);
      long id = execution.instance();
      String resume = "/api/batch/" + id + "/resume";
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();

      HttpResponse<String> running = act(port, resume, TOKEN);
      assertThat(running.statusCode()).isEqualTo(409);
      assertThat(running.body()).contains("runs already").contains("nothing changed");
      execution.stop();
      open.countDown();
      assertThat(execution.result().get(30, TimeUnit.SECONDS).state())
          .isEqualTo(BatchState.STOPPED);

      assertThat(act(port, resume, null).statusCode()).isEqualTo(401);
      assertThat(read(port, "/api/batch/" + id).get("state").asText())
          .as("nothing done without the token")
          .isEqualTo("STOPPED");
      HttpResponse<String> resumed = act(port, resume, TOKEN);
      assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
      assertThat(resumed.body()).contains("resumed instance " + id + " (orders)");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                try (BatchInstances store = instances.get()) {
                  return store.find(id).orElseThrow().state() == BatchState.COMPLETED;
                }
              });
      HttpResponse<String> ended = act(port, resume, TOKEN);
      assertThat(ended.statusCode()).isEqualTo(409);
      assertThat(ended.body()).contains("is COMPLETED").contains("nothing changed");
      assertThat(act(port, "/api/batch/999999/resume", TOKEN).statusCode()).isEqualTo(404);
      assertThat(act(port, "/api/batch/x/resume", TOKEN).statusCode()).isEqualTo(400);

      String failures = "/api/batch/" + id + "/failures";
      JsonNode first = read(port, failures + "?max=5");
      assertThat(first.get("failures").findValues("position").stream().map(JsonNode::asLong))
          .containsExactly(101L, 201L, 301L, 401L, 501L);
      assertThat(first.get("failures").get(0).get("step").asText()).isEqualTo("input");
      assertThat(first.get("failures").get(0).get("error").asText())
          .isEqualTo("line 101 has 1 field(s), the header names 2");
      assertThat(first.get("failures").get(0).get("payload").asText()).isEqualTo("100");
      assertThat(first.get("failed").asLong()).isEqualTo(20);
      assertThat(first.get("next").asLong()).isEqualTo(502);
      JsonNode rest = read(port, failures + "?from=502");
      assertThat(rest.get("count").asInt()).isEqualTo(15);
      assertThat(rest.get("failures").get(14).get("position").asLong()).isEqualTo(2001);
      assertThat(rest.get("next").isNull()).as("the last page").isTrue();
      for (String bad : List.of("?from=-1", "?from=x", "?max=0", "?max=1001", "?max=x")) {
        assertThat(get(port, failures + bad, TOKEN).statusCode()).as(bad).isEqualTo(400);
      }
      assertThat(get(port, failures, null).statusCode()).isEqualTo(401);
      assertThat(get(port, "/api/batch/999999/failures", TOKEN).statusCode()).isEqualTo(404);
    } finally {
      open.countDown();
      launcher.stopAll(Duration.ofSeconds(30));
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
      server.ready(List.of(), new Operations(app), jobs, null, null);
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
