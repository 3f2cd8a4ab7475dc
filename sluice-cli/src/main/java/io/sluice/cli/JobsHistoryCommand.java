package io.sluice.cli;

import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice jobs history}: the jobs that completed or failed, newest first. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    header = "Lists the jobs that completed or failed, newest first, kept for sluice.jobs.history.",
    description = {
      "Lists the jobs that ended within sluice.jobs.history (7 days unless set): each job that "
          + "completed, and each that failed with no retry left (an incident), newest first. "
          + "--type, --state and --search narrow the list together; --before gives the next page."
    })
final class JobsHistoryCommand implements Callable<Integer> {

  /** What {@code --state} takes. */
  enum State {
    completed,
    failed
  }

  @Mixin ConfiguredJobStore store;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only jobs of this type.")
  String type;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only jobs that completed, or only those that failed: completed or failed.")
  State state;

  @Option(
      names = "--search",
      paramLabel = "TEXT",
      description = "Only jobs whose payload or error holds TEXT, case ignored.")
  String search;

  @Option(
      names = "--max",
      defaultValue = "100",
      paramLabel = "N",
      description = "At most N entries, 1 to 1000 (default ${DEFAULT-VALUE}).")
  int max;

  @Option(
      names = "--before",
      defaultValue = "0",
      paramLabel = "ID",
      description = "Only entries older than entry ID: the next page.")
  long before;

  @Mixin ManagementTokenOption token;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    HistoryQuery query = query();
    return store.view(
        token,
        jobs -> {
          JobsView.HistoryPage page = jobs.history(query);
          List<FinishedJob> found = page.entries();
          PrintWriter out = spec.commandLine().getOut();
          if (output.json()) {
            OutputOption.print(out, json(page, max));
            return ExitCodes.OK;
          }
          if (page.retention().isZero()) {
            out.println("no history is kept: sluice.jobs.history is 0ms");
            return ExitCodes.OK;
          }
          Table table =
              new Table("ENTRY", "JOB", "TYPE", "STATE", "ATTEMPTS", "NODE", "FINISHED", "ERROR");
          for (FinishedJob job : found) {
            table.row(
                job.id(),
                job.jobId(),
                job.type(),
                state(job.state()),
                job.attempts(),
                job.node() == null ? "-" : job.node(),
                JobText.time(job.finishedAt()),
                job.error() == null ? "" : JobText.firstLine(job.error()));
          }
          if (!found.isEmpty()) {
            table.print(out);
          }
          out.printf("%d finished job(s)%n", found.size());
          Long next = next(found, max);
          if (next != null) {
            out.printf("more may follow: add --before %d for the next page%n", next);
          }
          return ExitCodes.OK;
        });
  }

  /** Where the page after {@code found} begins: its last entry, when it is full; else null. */
  private static Long next(List<FinishedJob> found, int max) {
    return found.size() == max ? found.getLast().id() : null;
  }

  /**
   * A page as {@code --output json} writes it and {@code GET /api/jobs/history} answers: the
   * entries, their count, {@code next} (the {@code before} of the next page, null at the last) and
   * how long the store keeps its history ({@code retention}, ISO-8601).
   */
  static Map<String, Object> json(JobsView.HistoryPage page, int max) {
    Map<String, Object> json = OutputOption.object();
    json.put("history", page.entries().stream().map(JobsHistoryCommand::json).toList());
    json.put("count", page.entries().size());
    json.put("next", next(page.entries(), max));
    json.put("retention", page.retention().toString());
    return json;
  }

  private HistoryQuery query() {
    if (max < 1 || max > HistoryQuery.MAX) {
      throw new ParameterException(
          spec.commandLine(), "--max must be from 1 to " + HistoryQuery.MAX + ", was " + max);
    }
    if (before < 0) {
      throw new ParameterException(
          spec.commandLine(), "--before must not be negative, was " + before);
    }
    FinishedJob.State wanted =
        state == null ? null : FinishedJob.State.valueOf(state.name().toUpperCase(Locale.ROOT));
    try {
      return new HistoryQuery(type, wanted, search, before, max);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--type: " + e.getMessage());
    }
  }

  /** {@code completed} or {@code failed}. */
  static String state(FinishedJob.State state) {
    return state.name().toLowerCase(Locale.ROOT);
  }

  /** An entry as {@code --output json} shows it: every field, the error and payload whole. */
  private static Map<String, Object> json(FinishedJob job) {
    Map<String, Object> json = OutputOption.object();
    json.put("id", job.id());
    json.put("jobId", job.jobId());
    json.put("type", job.type());
    json.put("state", state(job.state()));
    json.put("priority", job.priority());
    json.put("uniqueKey", job.uniqueKey());
    json.put("exclusiveKey", job.exclusiveKey());
    json.put("attempts", job.attempts());
    json.put("error", job.error());
    json.put("node", job.node());
    json.put("createdAt", OutputOption.time(job.createdAt()));
    json.put("finishedAt", OutputOption.time(job.finishedAt()));
    json.put("payload", job.payloadText());
    return json;
  }
}
