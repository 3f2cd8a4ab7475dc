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

/** {@code sluice jobs list}: the unfinished jobs, by state and type, a page at a time. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "Lists unfinished jobs in id order, a page at a time.",
    description = "Lists the unfinished jobs (finished jobs are deleted), in id order.")
final class JobsListCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Mixin ManagementTokenOption token;

  @Mixin JobPage page;

  @Mixin OutputOption output;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only jobs in this state: waiting, running or incident; any by default.")
  JobQuery.State state;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only jobs of this type.")
  String type;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    JobQuery query = page.query(state, type);
    return store.view(
        token,
        jobs -> {
          List<JobInfo> found = jobs.list(query);
          PrintWriter out = spec.commandLine().getOut();
          if (output.json()) {
            page.printJson(out, found, "jobs");
            return ExitCodes.OK;
          }
          Table table =
              new Table("ID", "TYPE", "STATE", "PRIORITY", "ATTEMPTS", "RETRIES", "DETAIL");
          for (JobInfo job : found) {
            table.row(
                job.id(),
                job.type(),
                JobText.state(job.state()),
                job.priority(),
                job.attempts(),
                job.retriesLeft(),
                JobText.detail(job));
          }
          if (!found.isEmpty()) {
            table.print(out);
          }
          page.printFooter(out, found, "job(s)");
          return ExitCodes.OK;
        });
  }
}
