package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.SluiceException;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobTypeStats;
import io.sluice.jobs.spi.NodeLease;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The jobs of an embedded store that {@code sluice run} holds, read (their history too) and retried
 * (one by one or a type at once) through its management API ({@link JobsApi}), which answers with
 * what the store says: the jobs commands print the same lines as on the store itself.
 */
final class RemoteJobs implements JobsView {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final String token;
  private final Path store;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The jobs of {@code store} at the API {@code base}, sending {@code token} (null: none). */
  RemoteJobs(URI base, String token, Path store) {
    this.base = base;
    this.token = token;
    this.store = store;
  }

  @Override
  public List<JobInfo> list(JobQuery query) {
    StringBuilder path = new StringBuilder("/api/jobs/list?after=").append(query.afterId());
    path.append("&max=").append(query.max());
    if (query.state() != null) {
      path.append("&state=").append(query.state().name().toLowerCase(Locale.ROOT));
    }
    if (query.type() != null) {
      path.append("&type=").append(encode(query.type()));
    }
    List<JobInfo> jobs = new ArrayList<>();
    for (JsonNode job : send("GET", path.toString(), 200).body()) {
      jobs.add(job(job));
    }
    return jobs;
  }

  @Override
  public Optional<JobInfo> find(long id) {
    Answer answer = send("GET", "/api/jobs/" + id, 200, 404);
    return answer.status() == 404 ? Optional.empty() : Optional.of(job(answer.body()));
  }

  @Override
  public List<JobTypeStats> stats() {
    List<JobTypeStats> stats = new ArrayList<>();
    for (JsonNode type : send("GET", "/api/jobs/stats", 200).body().get("types")) {
      stats.add(
          new JobTypeStats(
              type.get("type").asText(),
              type.get("waiting").asLong(),
              type.get("due").asLong(),
              type.get("running").asLong(),
              type.get("incidents").asLong(),
              instant(type.get("oldestDue"))));
    }
    return stats;
  }

  @Override
  public Instant now() {
    return Instant.now(); // the process holding the store runs on this machine's clock
  }

  @Override
  public boolean retry(long id, int retries) {
    return send("POST", "/api/jobs/" + id + "/retry?retries=" + retries, 200, 409).status() == 200;
  }

  @Override
  public int retryIncidents(String type, int retries) {
    Answer answer =
        send("POST", "/api/jobs/retry?type=" + encode(type) + "&retries=" + retries, 200, 409);
    return answer.status() == 409 ? 0 : answer.body().get("retried").asInt();
  }

  @Override
  public HistoryPage history(HistoryQuery query) {
    StringBuilder path = new StringBuilder("/api/jobs/history?before=").append(query.beforeId());
    path.append("&max=").append(query.max());
    if (query.type() != null) {
      path.append("&type=").append(encode(query.type()));
    }
    if (query.state() != null) {
      path.append("&state=").append(JobsHistoryCommand.state(query.state()));
    }
    if (query.text() != null) {
      path.append("&q=").append(encode(query.text()));
    }
    JsonNode page = send("GET", path.toString(), 200).body();
    List<FinishedJob> entries = new ArrayList<>();
    for (JsonNode entry : page.get("history")) {
      entries.add(finished(entry));
    }
    return new HistoryPage(entries, Duration.parse(page.get("retention").asText()));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** An entry of the history as {@link JobsHistoryCommand#json} wrote it. */
  private static FinishedJob finished(JsonNode json) {
    return new FinishedJob(
        json.get("id").asLong(),
        json.get("jobId").asLong(),
        json.get("type").asText(),
        FinishedJob.State.valueOf(json.get("state").asText().toUpperCase(Locale.ROOT)),
        json.get("priority").asInt(),
        text(json.get("uniqueKey")),
        text(json.get("exclusiveKey")),
        json.get("attempts").asInt(),
        text(json.get("error")),
        text(json.get("node")),
        instant(json.get("createdAt")),
        instant(json.get("finishedAt")),
        text(json.get("payload")));
  }

  /** A job as {@link JobText#json} wrote it. */
  private static JobInfo job(JsonNode json) {
    String lastError = text(json.get("lastError"));
    JobState state =
        switch (json.get("state").asText()) {
          case "waiting" -> new JobState.Waiting(instant(json.get("dueAt")));
          case "running" ->
              new JobState.Running(
                  new NodeLease(
                      json.get("owner").get("node").asText(),
                      json.get("owner").get("epoch").asLong()));
          default -> new JobState.Incident(lastError);
        };
    return new JobInfo(
        json.get("id").asLong(),
        json.get("type").asText(),
        json.get("priority").asInt(),
        state,
        json.get("retriesLeft").asInt(),
        json.get("attempts").asInt(),
        text(json.get("uniqueKey")),
        lastError,
        instant(json.get("createdAt")),
        text(json.get("exclusiveKey")));
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? null : node.asText();
  }

  private static Instant instant(JsonNode node) {
    return node == null || node.isNull() ? null : Instant.parse(node.asText());
  }

  private record Answer(int status, JsonNode body) {}

  private Answer send(String method, String path, int... expected) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(TIMEOUT)
            .method(
                method,
                method.equals("POST")
                    ? HttpRequest.BodyPublishers.ofString("{}")
                    : HttpRequest.BodyPublishers.noBody());
    if (method.equals("POST")) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw problem("could not be asked: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw problem("was asked, but the command was interrupted");
    }
    int status = response.statusCode();
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw problem("answered " + status + " with what is not JSON: " + e.getMessage());
    }
    for (int wanted : expected) {
      if (status == wanted) {
        return new Answer(status, body);
      }
    }
    String error = body.has("error") ? body.get("error").asText() : body.toString();
    if (status == 401) {
      throw problem(
          "wants its token ("
              + error
              + "): give it with --management-token-file FILE or "
              + ManagementAccess.TOKEN_VARIABLE);
    }
    throw problem("answered " + status + ": " + error);
  }

  private SluiceException problem(String what) {
    return new SluiceException(
        "The SQLite store "
            + store
            + " is held by a running sluice run, and its management API at "
            + base
            + " "
            + what);
  }
}
