package io.sluice.cli;

import io.sluice.jobs.spi.JobTypeStats;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
      "Counts the unfinished jobs per type: waiting (due or not), due now, running and",
      "incidents, and how long the oldest due job has waited."
    })
final class JobsStatsCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return store.use(
        jobs -> {
          List<JobTypeStats> stats = jobs.stats();
          Instant now = jobs.clock().instant();
          PrintWriter out = spec.commandLine().getOut();
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
