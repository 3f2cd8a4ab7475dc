package io.sluice.cli;

import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
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
        json.put("instances", found.stream().map(BatchListCommand::json).toList());
        json.put("count", found.size());
        json.put("store", instances.describe());
        OutputOption.print(out, json);
        return ExitCodes.OK;
      }
      Table table =
          new Table(
              "ID",
              "JOB",
              "STATE",
              "LOADED",
              "PROCESSED",
              "FAILED",
              "STARTED",
              "UPDATED",
              "RESULT");
      for (BatchInstance i : found) {
        table.row(
            i.id(),
            i.job(),
            i.stopRequested() ? i.state() + " (stop asked)" : i.state(),
            i.loaded() + (i.inputDone() ? "" : "+"),
            i.processed(),
            i.failed(),
            JobText.time(i.created()),
            JobText.time(i.updated()),
            i.result());
      }
      if (!found.isEmpty()) {
        table.print(out);
      }
      out.printf("%d instance(s) in %s%n", found.size(), instances.describe());
      return ExitCodes.OK;
    }
  }
}
