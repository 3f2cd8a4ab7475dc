package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeInfo;
import io.sluice.jobs.spi.WaitingJobs;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs part of the management API ({@link ManagementApi} hands it every path under {@code
 * /api/jobs}), on the job store of the application's {@code sluice.store}:
 *
 * <ul>
 *   <li>{@code GET /api/jobs}: the overview the console polls: waiting jobs per type and priority,
 *       running jobs per node, the oldest {@value #OVERVIEW_INCIDENTS} incidents, the nodes and
 *       their leases, and the counts per type;
 *   <li>{@code GET /api/jobs/stats}, {@code /api/jobs/incidents?max=50}, {@code
 *       /api/jobs/list?state=&type=&after=&max=} and {@code /api/jobs/{id}}: what {@code sluice
 *       jobs stats|incidents|list|show} read;
 *   <li>{@code GET /api/jobs/history?type=&state=completed|failed&q=&before=&max=50}: the jobs that
 *       ended, newest first, as {@code sluice jobs history --output json} writes them, {@code next}
 *       being the {@code before} of the next page; 400 on a bad state, number or a max outside 1 to
 *       {@value HistoryQuery#MAX};
 *   <li>{@code POST /api/jobs/{id}/retry?retries=N}: makes an incident wait again, due now; 409
 *       when the job is no longer an incident (it completed meanwhile, or was retried already),
 *       nothing changed;
 *   <li>{@code POST /api/jobs/retry?type=T&retries=N}: makes every incident of type {@code T} wait
 *       again, due now, in one statement, answering how many ({@code retried}); 409 when the type
 *       has none, nothing changed; 400 without a type.
 * </ul>
 *
 * <p>Without a durable store (a {@code memory} one keeps no jobs) every path answers 404.
 */
final class JobsApi {

  /** The incidents the overview shows; more through {@code /api/jobs/incidents?max=}. */
  static final int OVERVIEW_INCIDENTS = 100;

  private final JobStore store;

  /** The API over {@code store}; null when the application has no job store. */
  JobsApi(JobStore store) {
    this.store = store;
  }

  /** Answers {@code path} (its first segment is {@code jobs}). */
  void route(HttpExchange exchange, boolean post, List<String> path) throws IOException {
    if (store == null) {
      ManagementApi.reply(
          exchange, 404, Map.of("error", "this application's store keeps no jobs (memory)"));
      return;
    }
    int n = path.size();
    String second = n > 1 ? path.get(1) : null;
    if (!post && n == 1) {
      ManagementApi.reply(exchange, 200, overview());
    } else if (!post && n == 2 && second.equals("stats")) {
      ManagementApi.reply(exchange, 200, stats());
    } else if (!post && n == 2 && second.equals("incidents")) {
      ManagementApi.reply(
          exchange, 200, jobs(store.incidents(ManagementApi.max(exchange, 50, 1000))));
    } else if (!post && n == 2 && second.equals("list")) {
      list(exchange);
    } else if (!post && n == 2 && second.equals("history")) {
      history(exchange);
    } else if (post && n == 2 && second.equals("retry")) {
      retryType(exchange);
    } else if (!post && n == 2) {
      Long id = id(exchange, second);
      if (id != null) {
        Optional<JobInfo> job = store.find(id);
        if (job.isPresent()) {
          ManagementApi.reply(exchange, 200, JobText.json(job.get()));
        } else {
          ManagementApi.reply(
              exchange, 404, Map.of("error", "no unfinished job has id " + id + " (finished?)"));
        }
      }
    } else if (post && n == 3 && path.get(2).equals("retry")) {
      Long id = id(exchange, second);
      if (id != null) {
        retry(exchange, id);
      }
    } else {
      ManagementApi.reply(
          exchange, 404, Map.of("error", "no such path; see docs/configuration.md, The console"));
    }
  }

  private Map<String, Object> overview() {
    Map<String, Object> json = OutputOption.object();
    json.put("waiting", store.waitingByPriority().stream().map(JobsApi::waiting).toList());
    json.put("running", store.runningByNode().entrySet().stream().map(JobsApi::running).toList());
    json.put(
        "incidents", store.incidents(OVERVIEW_INCIDENTS).stream().map(JobsApi::incident).toList());
    json.put("nodes", store.nodes().stream().map(JobsApi::node).toList());
    json.put("stats", stats().get("types"));
    return json;
  }

  private void list(HttpExchange exchange) throws IOException {
    String state = ManagementApi.parameter(exchange, "state");
    JobQuery.State wanted = null;
    if (state != null) {
      try {
        wanted = JobQuery.State.valueOf(state.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        ManagementApi.reply(
            exchange,
            400,
            Map.of("error", "state is waiting, running or incident, was '" + state + "'"));
        return;
      }
    }
    String after = ManagementApi.parameter(exchange, "after");
    JobQuery query;
    try {
      query =
          new JobQuery(
              wanted,
              ManagementApi.parameter(exchange, "type"),
              after == null ? 0 : Long.parseLong(after),
              ManagementApi.max(exchange, 50, 1000));
    } catch (IllegalArgumentException e) {
      ManagementApi.reply(exchange, 400, Map.of("error", String.valueOf(e.getMessage())));
      return;
    }
    ManagementApi.reply(exchange, 200, jobs(store.list(query)));
  }

  private void history(HttpExchange exchange) throws IOException {
    String type = ManagementApi.parameter(exchange, "type");
    String state = ManagementApi.parameter(exchange, "state");
    String before = ManagementApi.parameter(exchange, "before");
    String max = ManagementApi.parameter(exchange, "max");
    HistoryQuery query;
    try {
      FinishedJob.State wanted =
          state == null ? null : FinishedJob.State.valueOf(state.toUpperCase(Locale.ROOT));
      query =
          new HistoryQuery(
              type,
              wanted,
              ManagementApi.parameter(exchange, "q"),
              before == null ? 0 : Long.parseLong(before),
              max == null ? 50 : Integer.parseInt(max));
    } catch (IllegalArgumentException e) { // NumberFormatException too
      ManagementApi.reply(
          exchange,
          400,
          Map.of(
              "error",
              "type is a job type, state completed or failed, before an entry's id (0 or more) and"
                  + " max a number from 1 to "
                  + HistoryQuery.MAX
                  + "; were '"
                  + type
                  + "', '"
                  + state
                  + "', '"
                  + before
                  + "' and '"
                  + max
                  + "'"));
      return;
    }
    ManagementApi.reply(
        exchange,
        200,
        JobsHistoryCommand.json(
            new JobsView.HistoryPage(store.history(query), store.historyRetention()), query.max()));
  }

  private void retryType(HttpExchange exchange) throws IOException {
    String type = ManagementApi.parameter(exchange, "type");
    Integer retries = retries(exchange);
    if (retries == null) {
      return;
    }
    try {
      NewJob.type(type == null ? "" : type);
    } catch (IllegalArgumentException e) {
      ManagementApi.reply(
          exchange,
          400,
          Map.of("error", "type names the job type whose incidents to retry, was '" + type + "'"));
      return;
    }
    int retried = store.retryIncidents(type, retries);
    Map<String, Object> count = OutputOption.object();
    count.put("retried", retried);
    ManagementApi.outcome(
        exchange,
        retried > 0,
        retried > 0
            ? retried
                + " incident(s) of type '"
                + type
                + "' wait again, due now, with "
                + retries
                + " retries"
            : "no incident of type '" + type + "'; nothing changed",
        count);
  }

  /** The query's {@code retries}, or the default; null when bad, answered 400. */
  private static Integer retries(HttpExchange exchange) throws IOException {
    String asked = ManagementApi.parameter(exchange, "retries");
    int retries;
    try {
      retries = asked == null ? NewJob.DEFAULT_MAX_RETRIES : Integer.parseInt(asked);
    } catch (NumberFormatException e) {
      retries = -1;
    }
    if (retries < 0) {
      ManagementApi.reply(
          exchange, 400, Map.of("error", "retries is a number, 0 or more, was '" + asked + "'"));
      return null;
    }
    return retries;
  }

  private void retry(HttpExchange exchange, long id) throws IOException {
    Integer retries = retries(exchange);
    if (retries == null) {
      return;
    }
    Optional<JobInfo> job = store.find(id);
    if (job.isEmpty()) {
      ManagementApi.outcome(
          exchange,
          false,
          "job " + id + " is no incident: it completed meanwhile, or never was; nothing changed");
      return;
    }
    if (!(job.get().state() instanceof JobState.Incident) || !store.retry(id, retries)) {
      String now = store.find(id).map(j -> JobText.state(j.state())).orElse("finished");
      ManagementApi.outcome(
          exchange,
          false,
          "job " + id + " is " + now + ", not an incident (retried meanwhile?); nothing changed");
      return;
    }
    ManagementApi.outcome(
        exchange,
        true,
        "job " + id + " (" + job.get().type() + ") waits again, due now, " + retries + " retries");
  }

  private static Long id(HttpExchange exchange, String text) throws IOException {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      ManagementApi.reply(
          exchange, 400, Map.of("error", "a job's id is a number, was '" + text + "'"));
      return null;
    }
  }

  private static List<Map<String, Object>> jobs(List<JobInfo> jobs) {
    return jobs.stream().map(JobText::json).toList();
  }

  private static Map<String, Object> waiting(WaitingJobs count) {
    Map<String, Object> json = OutputOption.object();
    json.put("type", count.type());
    json.put("priority", count.priority());
    json.put("waiting", count.waiting());
    return json;
  }

  private static Map<String, Object> running(Map.Entry<String, Long> node) {
    Map<String, Object> json = OutputOption.object();
    json.put("node", node.getKey());
    json.put("running", node.getValue());
    return json;
  }

  private static Map<String, Object> incident(JobInfo job) {
    Map<String, Object> json = OutputOption.object();
    json.put("id", job.id());
    json.put("type", job.type());
    json.put("error", job.lastError());
    json.put("attempts", job.attempts());
    json.put("createdAt", OutputOption.time(job.createdAt()));
    return json;
  }

  private static Map<String, Object> node(NodeInfo node) {
    Map<String, Object> json = OutputOption.object();
    json.put("node", node.node());
    json.put("epoch", node.epoch());
    json.put("live", node.live());
    json.put("leaseLeftMillis", node.leaseLeft().toMillis());
    return json;
  }

  /** The counts per type as {@code sluice jobs stats --output json} writes them. */
  private Map<String, Object> stats() {
    return JobsStatsCommand.json(store.stats(), store.clock().instant());
  }
}
