package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice jobs show}: one job, every field, its whole last error included. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    header = "Shows one unfinished job: every field and its whole last error.",
    description = "Shows one unfinished job; exits with 1 when there is none with this id.")
final class JobsShowCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Mixin ManagementTokenOption token;

  @Parameters(index = "1", paramLabel = "ID", description = "The job's id.")
  long id;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return store.view(
        token,
        jobs -> {
          Optional<JobInfo> found = jobs.find(id);
          if (found.isEmpty()) {
            return JobsRetryCommand.noSuchJob(spec, id);
          }
          JobInfo job = found.get();
          PrintWriter out = spec.commandLine().getOut();
          if (output.json()) {
            OutputOption.print(out, JobText.json(job));
            return ExitCodes.OK;
          }
          line(out, "id", job.id());
          line(out, "type", job.type());
          line(out, "state", JobText.state(job.state()));
          switch (job.state()) {
            case JobState.Waiting w -> line(out, "due", JobText.time(w.dueAt()));
            case JobState.Running r -> line(out, "running on", r.owner());
            case JobState.Incident i -> {}
          }
          line(out, "priority", job.priority());
          line(out, "attempts", job.attempts());
          line(out, "retries left", job.retriesLeft());
          line(out, "unique key", job.uniqueKey());
          line(out, "exclusive key", job.exclusiveKey());
          line(out, "created", JobText.time(job.createdAt()));
          line(out, "last error", job.lastError());
          return ExitCodes.OK;
        });
  }

  private static void line(PrintWriter out, String name, Object value) {
    out.printf("%-14s %s%n", name + ":", value == null ? "-" : value);
  }
}
