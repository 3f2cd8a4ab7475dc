package io.sluice.cli;

import io.sluice.jobs.spi.JobTypeStats;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice jobs stats}: the unfinished jobs counted per type. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    header = "Counts the unfinished jobs per type: waiting, due now, running, incidents.",
    description = {
      "Counts the unfinished jobs per type: waiting (due or not), due now, running and "
          + "incidents, and how long the oldest due job has waited."
    })
final class JobsStatsCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Mixin ManagementTokenOption token;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return store.view(
        token,
        jobs -> {
          List<JobTypeStats> stats = jobs.stats();
          Instant now = jobs.now();
          PrintWriter out = spec.commandLine().getOut();
          if (output.json()) {
            OutputOption.print(out, json(stats, now));
            return ExitCodes.OK;
          }
          if (stats.isEmpty()) {
            out.println("no unfinished job");
            return ExitCodes.OK;
          }
          Table table =
              new Table("TYPE", "WAITING", "DUE NOW", "RUNNING", "INCIDENTS", "OLDEST DUE WAITED");
          JobTypeStats total = new JobTypeStats("total", 0, 0, 0, 0, null);
          for (JobTypeStats type : stats) {
            row(table, type, now);
            total = add(total, type);
          }
          if (stats.size() > 1) {
            row(table, total, now);
          }
          table.print(out);
          return ExitCodes.OK;
        });
  }

  /**
   * {@code {"types": [{"type", "waiting", "due", "running", "incidents", "oldestDue",
   * "oldestDueWaitedSeconds"}...]}}, no total (a script adds them up).
   */
  static Map<String, Object> json(List<JobTypeStats> stats, Instant now) {
    List<Map<String, Object>> types = new ArrayList<>();
    for (JobTypeStats type : stats) {
      Map<String, Object> json = OutputOption.object();
      json.put("type", type.type());
      json.put("waiting", type.waiting());
      json.put("due", type.due());
      json.put("running", type.running());
      json.put("incidents", type.incidents());
      json.put("oldestDue", OutputOption.time(type.oldestDue()));
      json.put(
          "oldestDueWaitedSeconds",
          type.oldestDue() == null
              ? null
              : Math.max(0, Duration.between(type.oldestDue(), now).toSeconds()));
      types.add(json);
    }
    Map<String, Object> json = OutputOption.object();
    json.put("types", types);
    return json;
  }

  private static void row(Table table, JobTypeStats stats, Instant now) {
    table.row(
        stats.type(),
        stats.waiting(),
        stats.due(),
        stats.running(),
        stats.incidents(),
        stats.oldestDue() == null ? null : JobText.age(Duration.between(stats.oldestDue(), now)));
  }

  private static JobTypeStats add(JobTypeStats total, JobTypeStats type) {
    Instant oldest = total.oldestDue();
    if (oldest == null || type.oldestDue() != null && type.oldestDue().isBefore(oldest)) {
      oldest = type.oldestDue();
    }
    return new JobTypeStats(
        total.type(),
        total.waiting() + type.waiting(),
        total.due() + type.due(),
        total.running() + type.running(),
        total.incidents() + type.incidents(),
        oldest);
  }
}
