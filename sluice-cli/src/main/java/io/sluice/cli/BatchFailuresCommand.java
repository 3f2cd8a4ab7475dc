package io.sluice.cli;

import io.sluice.batch.BatchFailure;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchInstances;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice batch failures}: the failed records a batch instance kept, in input order. */
@Command(
    name = "failures",
    mixinStandardHelpOptions = true,
    header = "Lists the failed records a batch instance kept: line, step, error and payload.",
    description = {
      "Lists the failed records the instance with this id (see sluice batch list) kept in the "
          + "store, in input order: each one's position (a CSV file's line number), the step that "
          + "failed it (input when it could not be read), its error, the start of its payload and "
          + "when it failed. An instance keeps up to its job's keepFailedRecords. Works beside the "
          + "process running it, also on the embedded store."
    })
final class BatchFailuresCommand implements Callable<Integer> {

  @Mixin ConfiguredStorage store;

  @Parameters(index = "1", paramLabel = "ID", description = "The instance's id.")
  long id;

  @Option(
      names = "--max",
      defaultValue = "100",
      paramLabel = "N",
      description = "At most N records (default ${DEFAULT-VALUE}).")
  int max;

  @Option(
      names = "--from",
      defaultValue = "0",
      paramLabel = "POSITION",
      description =
          "Begin at this position (default ${DEFAULT-VALUE}, the first): the footer of a page "
              + "says where the next begins.")
  long from;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  /** A failed record as {@code --output json} shows it: every field of {@link BatchFailure}. */
  private static Map<String, Object> json(BatchFailure f) {
    Map<String, Object> json = OutputOption.object();
    json.put("position", f.position());
    json.put("step", f.step());
    json.put("error", f.error());
    json.put("payload", f.payload());
    json.put("time", OutputOption.time(f.time()));
    return json;
  }

  @Override
  public Integer call() {
    if (max < 1) {
      throw new ParameterException(spec.commandLine(), "--max must be at least 1, was " + max);
    }
    try (BatchInstances instances = BatchListCommand.instances(store)) {
      Optional<BatchInstance> instance = instances.find(id);
      if (instance.isEmpty()) {
        return BatchStopCommand.noSuchInstance(spec, id, instances.describe());
      }
      List<BatchFailure> found = instances.failures(id, from, max);
      Long next = found.size() < max ? null : found.getLast().position() + 1;
      PrintWriter out = spec.commandLine().getOut();
      if (output.json()) {
        Map<String, Object> json = OutputOption.object();
        json.put("instance", id);
        json.put("failures", found.stream().map(BatchFailuresCommand::json).toList());
        json.put("count", found.size());
        json.put("failed", instance.get().failed());
        json.put("next", next);
        json.put("store", instances.describe());
        OutputOption.print(out, json);
        return ExitCodes.OK;
      }
      Table table = new Table("POSITION", "STEP", "ERROR", "PAYLOAD", "TIME");
      for (BatchFailure f : found) {
        table.row(
            f.position(),
            f.step(),
            JobText.firstLine(f.error()),
            f.payload() == null ? "" : JobText.firstLine(f.payload()),
            JobText.time(f.time()));
      }
      if (!found.isEmpty()) {
        table.print(out);
      }
      out.printf(
          "%d failed record(s) of instance %d (%s), which counts %d failed%s%n",
          found.size(),
          id,
          instance.get().job(),
          instance.get().failed(),
          next == null ? "" : "; next: --from " + next);
      return ExitCodes.OK;
    }
  }
}
