package io.sluice.cli;

import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
import io.sluice.batch.BatchNodeWork;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice batch list}: the instances of batch jobs, newest first. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Lists batch instances, newest first, with their state, counts and result.",
    description = {
      "Lists the instances of the store's batch jobs, newest first: state, records loaded, "
          + "processed and failed so far, and the result of their last run. Works beside the "
          + "process running one, also on the embedded store."
    })
final class BatchListCommand implements Callable<Integer> {

  @Mixin ConfiguredStorage store;

  @Option(names = "--job", paramLabel = "NAME", description = "Only the instances of this job.")
  String job;

  @Option(
      names = "--limit",
      defaultValue = "20",
      paramLabel = "N",
      description = "At most N instances (default ${DEFAULT-VALUE}).")
  int limit;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  /**
   * The batch instances in the store of {@code store}'s file, reached beside the process running
   * them (see {@link BatchInstances}).
   */
  static BatchInstances instances(ConfiguredStorage store) {
    var file = store.durable("batch instances");
    return BatchInstances.open(file.storageConfig(), file.storedValues(), store.loader());
  }

  /**
   * An instance as {@code --output json} shows it: every field of {@link BatchInstance}, and what
   * each node did of it when several ran it ({@code nodes}, empty else).
   */
  static Map<String, Object> json(BatchInstance i, List<BatchNodeWork> nodes) {
    Map<String, Object> json = json(i);
    json.put(
        "nodes",
        nodes.stream()
            .map(
                n -> {
                  Map<String, Object> node = OutputOption.object();
                  node.put("node", n.node());
                  node.put("processed", n.processed());
                  node.put("failed", n.failed());
                  node.put("blocks", n.blocks());
                  node.put("updated", OutputOption.time(n.updated()));
                  return node;
                })
            .toList());
    return json;
  }

  /** An instance as {@code --output json} shows it: every field of {@link BatchInstance}. */
  static Map<String, Object> json(BatchInstance i) {
    Map<String, Object> json = OutputOption.object();
    json.put("id", i.id());
    json.put("job", i.job());
    json.put("state", i.state().toString());
    json.put("running", i.running());
    json.put("stopRequested", i.stopRequested());
    json.put("loaded", i.loaded());
    json.put("inputDone", i.inputDone());
    json.put("processed", i.processed());
    json.put("successful", i.successful());
    json.put("failed", i.failed());
    json.put("created", OutputOption.time(i.created()));
    json.put("updated", OutputOption.time(i.updated()));
    json.put("result", i.result());
    return json;
  }

  /**
   * {@code instance 7 on 3 nodes: host-a 6,700 processed (2 failed) in 67 blocks, ...}: what each
   * node did of an instance several ran.
   */
  static String breakdown(BatchInstance i, List<BatchNodeWork> nodes) {
    StringBuilder line =
        new StringBuilder("instance ")
            .append(i.id())
            .append(" on ")
            .append(nodes.size())
            .append(nodes.size() == 1 ? " node: " : " nodes: ");
    for (int n = 0; n < nodes.size(); n++) {
      BatchNodeWork node = nodes.get(n);
      line.append(n == 0 ? "" : ", ")
          .append(node.node())
          .append(
              String.format(
                  java.util.Locale.ROOT,
                  " %,d processed (%,d failed) in %,d blocks",
                  node.processed(),
                  node.failed(),
                  node.blocks()));
    }
    return line.toString();
  }

  @Override
  public Integer call() {
    if (limit < 1) {
      throw new ParameterException(spec.commandLine(), "--limit must be at least 1, was " + limit);
    }
    try (BatchInstances instances = instances(store)) {
      List<BatchInstance> found = instances.list(job, limit);
      PrintWriter out = spec.commandLine().getOut();
      if (output.json()) {
        Map<String, Object> json = OutputOption.object();
        json.put("instances", found.stream().map(i -> json(i, instances.nodes(i.id()))).toList());
        json.put("count", found.size());
        json.put("store", instances.describe());
        OutputOption.print(out, json);
        return ExitCodes.OK;
      }
      // The nodes column only where several nodes can run an instance (a shared store).
      Map<Long, List<BatchNodeWork>> nodes = new java.util.HashMap<>();
      found.forEach(i -> nodes.put(i.id(), instances.nodes(i.id())));
      boolean shared = nodes.values().stream().anyMatch(n -> !n.isEmpty());
      List<String> header =
          new java.util.ArrayList<>(List.of("ID", "JOB", "STATE", "LOADED", "PROCESSED", "FAILED"));
      if (shared) {
        header.add("NODES");
      }
      header.addAll(List.of("STARTED", "UPDATED", "RESULT"));
      Table table = new Table(header.toArray(String[]::new));
      List<String> breakdowns = new java.util.ArrayList<>();
      for (BatchInstance i : found) {
        List<BatchNodeWork> on = nodes.get(i.id());
        if (!on.isEmpty()) {
          breakdowns.add(breakdown(i, on));
        }
        List<Object> row =
            new java.util.ArrayList<>(
                List.of(
                    i.id(),
                    i.job(),
                    i.stopRequested() ? i.state() + " (stop asked)" : i.state(),
                    i.loaded() + (i.inputDone() ? "" : "+"),
                    i.processed(),
                    i.failed()));
        if (shared) {
          row.add(on.isEmpty() ? "" : on.size());
        }
        row.add(JobText.time(i.created()));
        row.add(JobText.time(i.updated()));
        row.add(i.result());
        table.row(row.toArray());
      }
      if (!found.isEmpty()) {
        table.print(out);
      }
      breakdowns.forEach(out::println);
      out.printf("%d instance(s) in %s%n", found.size(), instances.describe());
      return ExitCodes.OK;
    }
  }
}
