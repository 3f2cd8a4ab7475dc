package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchFailure;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchLauncher;
import io.sluice.batch.BatchStartRefusedException;
import io.sluice.batch.BatchState;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The batch part of the management API ({@link ManagementApi} hands it every path under {@code
 * /api/batch}): the instances of the store's batch jobs, as {@code sluice batch list} reads them,
 * their failed records, a stop request and a resume.
 *
 * <ul>
 *   <li>{@code GET /api/batch?job=&max=20}: instances, newest first, with their counts so far
 *       (loaded, processed, successful, failed: the process running one writes them at each block);
 *   <li>{@code GET /api/batch/{id}}: one;
 *   <li>{@code POST /api/batch/{id}/stop}: asks the process running it to stop it at its next block
 *       (as {@code sluice batch stop} does, without waiting); 409 when it has ended or is stopped
 *       already, nothing changed;
 *   <li>{@code GET /api/batch/{id}/failures?from=0&max=50}: the failed records it kept, a page;
 *   <li>{@code POST /api/batch/{id}/resume}: resumes it in this process through the bound launcher;
 *       409 with the reason when refused, nothing changed.
 * </ul>
 *
 * <p>Each request reads the instances through the {@link BatchInstances} its supplier gives: in
 * {@code sluice run} the application's own open storage ({@link BatchInstances#of}), so a page
 * polling every second opens no storage or connection. Without a durable store every path answers
 * 404.
 */
final class BatchApi {

  /** The most failed records one page of {@code /failures} holds. */
  static final int MOST_FAILURES = 1000;

  private final Supplier<BatchInstances> instances;
  private final BatchLauncher launcher;

  /**
   * The API over the instances {@code instances} opens (null when the store keeps none), resuming
   * them through {@code launcher} (null: this process resumes none).
   */
  BatchApi(Supplier<BatchInstances> instances, BatchLauncher launcher) {
    this.instances = instances;
    this.launcher = launcher;
  }

  /** Answers {@code path} (its first segment is {@code batch}). */
  void route(HttpExchange exchange, boolean post, List<String> path) throws IOException {
    if (instances == null) {
      ManagementApi.reply(
          exchange,
          404,
          Map.of("error", "this application's store keeps no batch instances (memory)"));
      return;
    }
    int n = path.size();
    String action = n == 3 ? path.get(2) : "";
    boolean stop = post && action.equals("stop");
    boolean resume = post && action.equals("resume");
    boolean failures = !post && action.equals("failures");
    if (!(!post && n <= 2) && !stop && !resume && !failures) {
      ManagementApi.reply(
          exchange, 404, Map.of("error", "no such path; see docs/configuration.md, The console"));
      return;
    }
    try (BatchInstances open = instances.get()) {
      if (n == 1) {
        ManagementApi.reply(
            exchange,
            200,
            open
                .list(
                    ManagementApi.parameter(exchange, "job"), ManagementApi.max(exchange, 20, 1000))
                .stream()
                .map(BatchListCommand::json)
                .toList());
        return;
      }
      long id;
      try {
        id = Long.parseLong(path.get(1));
      } catch (NumberFormatException e) {
        ManagementApi.reply(
            exchange,
            400,
            Map.of("error", "a batch instance's id is a number, was '" + path.get(1) + "'"));
        return;
      }
      Optional<BatchInstance> found = open.find(id);
      if (found.isEmpty()) {
        ManagementApi.reply(
            exchange,
            404,
            Map.of("error", "no batch instance has id " + id + " in " + open.describe()));
      } else if (failures) {
        failures(exchange, open, found.get());
      } else if (resume) {
        resume(exchange, found.get());
      } else if (!stop) {
        ManagementApi.reply(exchange, 200, BatchListCommand.json(found.get()));
      } else if (open.requestStop(id)) {
        ManagementApi.outcome(
            exchange,
            true,
            "asked instance "
                + id
                + " ("
                + found.get().job()
                + ") to stop; the process running it stops at its next block");
      } else {
        BatchInstance now = open.find(id).orElse(found.get());
        ManagementApi.outcome(
            exchange,
            false,
            "instance "
                + id
                + " ("
                + now.job()
                + ") "
                + (now.state() == BatchState.STOPPED
                    ? "is stopped already"
                    : "has ended (" + now.state() + ")")
                + "; nothing changed");
      }
    }
  }

  private static void failures(HttpExchange exchange, BatchInstances open, BatchInstance instance)
      throws IOException {
    String fromText = ManagementApi.parameter(exchange, "from");
    String maxText = ManagementApi.parameter(exchange, "max");
    long from;
    int max;
    try {
      from = fromText == null ? 0 : Long.parseLong(fromText);
      max = maxText == null ? 50 : Integer.parseInt(maxText);
    } catch (NumberFormatException e) {
      from = -1;
      max = 0;
    }
    if (from < 0 || max < 1 || max > MOST_FAILURES) {
      ManagementApi.reply(
          exchange,
          400,
          Map.of(
              "error",
              "from is a position, 0 or more, and max a number from 1 to "
                  + MOST_FAILURES
                  + "; were '"
                  + fromText
                  + "' and '"
                  + maxText
                  + "'"));
      return;
    }
    List<BatchFailure> found = open.failures(instance.id(), from, max);
    ManagementApi.reply(
        exchange,
        200,
        BatchFailuresCommand.page(instance, found, BatchFailuresCommand.next(found, max)));
  }

  private void resume(HttpExchange exchange, BatchInstance instance) throws IOException {
    if (launcher == null) {
      ManagementApi.outcome(
          exchange,
          false,
          "this process runs no batch jobs; sluice batch resume resumes instance "
              + instance.id()
              + "; nothing changed");
      return;
    }
    BatchEngine.Execution execution;
    try {
      execution = launcher.resume(instance.id());
    } catch (BatchStartRefusedException e) {
      ManagementApi.outcome(exchange, false, e.getMessage() + "; nothing changed");
      return;
    }
    ManagementApi.outcome(
        exchange,
        true,
        "resumed instance "
            + execution.instance()
            + " ("
            + instance.job()
            + ") in this process, where it stopped");
  }
}
