package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice jobs incidents}: the jobs that failed with no retry left, and why. */
@Command(
    name = "incidents",
    mixinStandardHelpOptions = true,
    header = "Lists the incidents: jobs that failed with no retry left, and why.",
    description = {
      "Lists the jobs that failed with no retry left, oldest first, with their last error. "
          + "Once the cause is fixed: sluice jobs retry CONFIG ID..."
    })
final class JobsIncidentsCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Mixin ManagementTokenOption token;

  @Mixin JobPage page;

  @Mixin OutputOption output;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only incidents of this type.")
  String type;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    JobQuery query = page.query(JobQuery.State.INCIDENT, type);
    return store.view(
        token,
        jobs -> {
          List<JobInfo> found = jobs.list(query);
          PrintWriter out = spec.commandLine().getOut();
          if (output.json()) {
            page.printJson(out, found, "incidents");
            return ExitCodes.OK;
          }
          Table table = new Table("ID", "TYPE", "ATTEMPTS", "CREATED", "ERROR");
          for (JobInfo job : found) {
            table.row(
                job.id(),
                job.type(),
                job.attempts(),
                JobText.time(job.createdAt()),
                JobText.firstLine(job.lastError() == null ? "" : job.lastError()));
          }
          if (!found.isEmpty()) {
            table.print(out);
          }
          page.printFooter(out, found, "incident(s)");
          return ExitCodes.OK;
        });
  }
}
