package io.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import io.sluice.config.Secrets;
import io.sluice.core.SluiceException;
import io.sluice.core.app.Operations;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The management port's JSON API under {@code /api/}, what the console and scripts use:
 *
 * <ul>
 *   <li>{@code GET /api/flows}, {@code POST /api/flows/{flow}/stop} and {@code /start};
 *   <li>{@code GET /api/queues}, {@code GET /api/queues/{queue}/dead-letters?max=50}, {@code POST
 *       /api/queues/{queue}/dead-letters/{id}/requeue} and {@code /drop};
 *   <li>{@code /api/jobs...}: {@link JobsApi}; {@code /api/batch...}: {@link BatchApi}.
 * </ul>
 *
 * <p>Every path wants the token when one is set (401 otherwise, nothing done). An action is a POST
 * whose body is JSON ({@code Content-Type: application/json}, an empty object will do): a form or a
 * script on another site cannot send one without the browser asking this port first, which it does
 * not answer, so a page elsewhere cannot act through a browser that can reach the port. An action
 * with nothing to act on says so: 404 for a flow or queue there is not, 409 when the dead letter is
 * gone or the flow already in the asked state, nothing changed.
 */
final class ManagementApi {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ManagementAccess access;
  private volatile Operations operations;
  private volatile JobsApi jobs = new JobsApi(null);
  private volatile BatchApi batches = new BatchApi(null, null);

  ManagementApi(ManagementAccess access) {
    this.access = access;
  }

  /**
   * From now on the API works on {@code value}, {@code jobs} and {@code batches}; until then it
   * answers 503, starting.
   */
  void operations(Operations value, JobsApi jobs, BatchApi batches) {
    this.jobs = jobs;
    this.batches = batches;
    operations = value;
  }

  void handle(HttpExchange exchange) throws IOException {
    try {
      if (!access.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"sluice\"");
        reply(exchange, 401, Map.of("error", "a bearer token is required"));
        return;
      }
      Operations current = operations;
      if (current == null) {
        reply(exchange, 503, Map.of("error", "starting"));
        return;
      }
      String method = exchange.getRequestMethod();
      List<String> path = segments(exchange.getRequestURI().getRawPath());
      boolean post = "POST".equals(method);
      if (!post && !"GET".equals(method)) {
        exchange.getResponseHeaders().add("Allow", "GET, POST");
        reply(exchange, 405, Map.of("error", "GET to read, POST to act"));
        return;
      }
      if (post && !json(exchange)) {
        reply(
            exchange,
            415,
            Map.of("error", "an action is a POST with Content-Type: application/json"));
        return;
      }
      exchange.getRequestBody().readNBytes(64 * 1024); // an action's body says nothing more
      if (path.size() >= 2
          && path.get(0).equals("queues")
          && current.queue(path.get(1)).isEmpty()) {
        reply(
            exchange,
            404,
            Map.of("error", "no flow takes from a queue named '" + path.get(1) + "'"));
        return;
      }
      route(exchange, current, post, path);
    } catch (SluiceException e) {
      // What is there could not do it: the store away, a source that cannot start again. A flow
      // or queue there is not was answered 404 before this (closing the exchange first would lose
      // this answer).
      reply(exchange, 503, Map.of("error", Secrets.mask(e.getMessage())));
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, Operations ops, boolean post, List<String> path)
      throws IOException {
    int n = path.size();
    if (n >= 1 && path.get(0).equals("jobs")) {
      jobs.route(exchange, post, path);
    } else if (n >= 1 && path.get(0).equals("batch")) {
      batches.route(exchange, post, path);
    } else if (!post && n == 1 && path.get(0).equals("flows")) {
      reply(exchange, 200, ops.flows());
    } else if (post && n == 3 && path.get(0).equals("flows") && isStopOrStart(path.get(2))) {
      String flow = path.get(1);
      if (ops.flow(flow).isEmpty()) {
        reply(exchange, 404, Map.of("error", "no flow named '" + flow + "'"));
        return;
      }
      boolean stop = path.get(2).equals("stop");
      boolean done = stop ? ops.stopFlow(flow) : ops.startFlow(flow);
      outcome(
          exchange,
          done,
          done
              ? "flow '" + flow + "' " + (stop ? "stopped" : "started")
              : "flow '" + flow + "' was " + (stop ? "stopped" : "running") + " already");
    } else if (!post && n == 1 && path.get(0).equals("queues")) {
      reply(exchange, 200, ops.queues());
    } else if (!post
        && n == 3
        && path.get(0).equals("queues")
        && path.get(2).equals("dead-letters")) {
      reply(exchange, 200, ops.deadLetters(path.get(1), max(exchange, 50, 1000)));
    } else if (post
        && n == 5
        && path.get(0).equals("queues")
        && path.get(2).equals("dead-letters")
        && (path.get(4).equals("requeue") || path.get(4).equals("drop"))) {
      deadLetter(exchange, ops, path.get(1), path.get(3), path.get(4).equals("requeue"));
    } else {
      reply(exchange, 404, Map.of("error", "no such path; see docs/configuration.md, The console"));
    }
  }

  private void deadLetter(
      HttpExchange exchange, Operations ops, String queue, String idText, boolean requeue)
      throws IOException {
    long id;
    try {
      id = Long.parseLong(idText);
    } catch (NumberFormatException e) {
      reply(exchange, 400, Map.of("error", "a dead letter's id is a number, was '" + idText + "'"));
      return;
    }
    boolean done = requeue ? ops.requeueDeadLetter(queue, id) : ops.dropDeadLetter(queue, id);
    outcome(
        exchange,
        done,
        done
            ? "dead letter "
                + id
                + " of queue '"
                + queue
                + "' "
                + (requeue ? "requeued" : "dropped")
            : "queue '"
                + queue
                + "' has no dead letter "
                + id
                + " (requeued or dropped meanwhile?); nothing changed");
  }

  private static boolean isStopOrStart(String action) {
    return action.equals("stop") || action.equals("start");
  }

  /**
   * Answers an action: {@code {"done": …, "message": …}}, 200 when it was done, 409 when there was
   * nothing to do (nothing changed).
   */
  static void outcome(HttpExchange exchange, boolean done, String message) throws IOException {
    outcome(exchange, done, message, Map.of());
  }

  /** As {@link #outcome(HttpExchange, boolean, String)}, with the fields {@code more} after. */
  static void outcome(HttpExchange exchange, boolean done, String message, Map<String, Object> more)
      throws IOException {
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("done", done);
    outcome.put("message", message);
    outcome.putAll(more);
    reply(exchange, done ? 200 : 409, outcome);
  }

  private static boolean json(HttpExchange exchange) {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    return type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json");
  }

  /** The query's {@code max}, within 1 and {@code most}; {@code otherwise} when absent or bad. */
  static int max(HttpExchange exchange, int otherwise, int most) {
    String max = parameter(exchange, "max");
    if (max != null) {
      try {
        return Math.max(1, Math.min(most, Integer.parseInt(max)));
      } catch (NumberFormatException e) {
        return otherwise;
      }
    }
    return otherwise;
  }

  /** The query parameter {@code name}, decoded; null when absent or empty. */
  static String parameter(HttpExchange exchange, String name) {
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith(name + "=") && part.length() > name.length() + 1) {
          return URLDecoder.decode(part.substring(name.length() + 1), StandardCharsets.UTF_8);
        }
      }
    }
    return null;
  }

  /** The path's segments after {@code /api/}, each decoded. */
  private static List<String> segments(String rawPath) {
    String rest = rawPath.substring("/api".length());
    return java.util.Arrays.stream(rest.split("/"))
        .filter(s -> !s.isEmpty())
        .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8))
        .toList();
  }

  /** Answers {@code status} with {@code body} as JSON, every secret value masked. */
  static void reply(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes;
    try {
      bytes = (Secrets.mask(JSON.writeValueAsString(body)) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IOException("cannot write the answer as JSON", e);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
