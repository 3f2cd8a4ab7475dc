package io.sluice.cli;

import com.sun.net.httpserver.HttpExchange;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchState;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The batch part of the management API ({@link ManagementApi} hands it every path under {@code
 * /api/batch}): the instances of the store's batch jobs, as {@code sluice batch list} reads them,
 * and a stop request.
 *
 * <ul>
 *   <li>{@code GET /api/batch?job=&max=20}: instances, newest first, with their counts so far
 *       (loaded, processed, successful, failed: the process running one writes them at each block);
 *   <li>{@code GET /api/batch/{id}}: one;
 *   <li>{@code POST /api/batch/{id}/stop}: asks the process running it to stop it at its next block
 *       (as {@code sluice batch stop} does, without waiting); 409 when it has ended or is stopped
 *       already, nothing changed.
 * </ul>
 *
 * <p>Each request opens the instance table beside the store's owner ({@link BatchInstances}) and
 * closes it. Without a durable store every path answers 404.
 */
final class BatchApi {

  private final Supplier<BatchInstances> instances;

  /** The API over the instances {@code instances} opens; null when the store keeps none. */
  BatchApi(Supplier<BatchInstances> instances) {
    this.instances = instances;
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
    boolean stop = post && n == 3 && path.get(2).equals("stop");
    if (!(!post && n <= 2) && !stop) {
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
      } else if (!stop) {
        ManagementApi.reply(exchange, 200, BatchListCommand.json(found.get()));
      } else if (open.requestStop(id)) {
        ManagementApi.reply(
            exchange,
            200,
            ManagementApi.outcome(
                true,
                "asked instance "
                    + id
                    + " ("
                    + found.get().job()
                    + ") to stop; the process running it stops at its next block"));
      } else {
        BatchInstance now = open.find(id).orElse(found.get());
        ManagementApi.reply(
            exchange,
            409,
            ManagementApi.outcome(
                false,
                "instance "
                    + id
                    + " ("
                    + now.job()
                    + ") "
                    + (now.state() == BatchState.STOPPED
                        ? "is stopped already"
                        : "has ended (" + now.state() + ")")
                    + "; nothing changed"));
      }
    }
  }
}
