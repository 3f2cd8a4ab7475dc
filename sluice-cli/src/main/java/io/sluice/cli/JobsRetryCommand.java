package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.NewJob;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice jobs retry}: makes incidents wait again, due now, with fresh retries: those named
 * by id, or every incident of a type.
 */
@Command(
    name = "retry",
    mixinStandardHelpOptions = true,
    header = "Makes incidents wait again, due now, with fresh retries.",
    description = {
      "Makes each incident named by its id, or with --type every incident of that type at once, "
          + "wait again, due now, with --retries retries. Exits with 1 when an id is not an "
          + "unfinished job or not an incident (the other ids are retried all the same), or when "
          + "the type has no incident."
    })
final class JobsRetryCommand implements Callable<Integer> {

  @Mixin ConfiguredJobStore store;

  @Mixin ManagementTokenOption token;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "ID", description = "Incident ids.")
  List<Long> ids = List.of();

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = "Every incident of this type instead of ids, in one statement.")
  String type;

  @Option(
      names = "--retries",
      paramLabel = "N",
      description = "Retries after its next failure (default ${DEFAULT-VALUE}).")
  int retries = NewJob.DEFAULT_MAX_RETRIES;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (retries < 0) {
      throw new ParameterException(
          spec.commandLine(), "--retries must not be negative, was " + retries);
    }
    if (type != null == !ids.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "give the incident ids, or --type TYPE for every incident of a type: one of the two");
    }
    if (type != null) {
      try {
        NewJob.type(type);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--type: " + e.getMessage());
      }
      return store.view(token, this::retryType);
    }
    return store.view(
        token,
        jobs -> {
          int exit = ExitCodes.OK;
          for (long id : ids) {
            if (!retry(jobs, id)) {
              exit = ExitCodes.FAILED;
            }
          }
          return exit;
        });
  }

  private int retryType(JobsView jobs) {
    int retried = jobs.retryIncidents(type, retries);
    if (retried == 0) {
      spec.commandLine()
          .getErr()
          .printf(
              "sluice: no incident of type '%s' (any more); see sluice jobs incidents --type %s%n",
              type, type);
      return ExitCodes.FAILED;
    }
    spec.commandLine()
        .getOut()
        .printf(
            "%d incident(s) of type '%s' wait again, due now, with %d retries%n",
            retried, type, retries);
    return ExitCodes.OK;
  }

  private boolean retry(JobsView jobs, long id) {
    Optional<JobInfo> found = jobs.find(id);
    if (found.isEmpty()) {
      noSuchJob(spec, id);
      return false;
    }
    JobInfo job = found.get();
    if (!(job.state() instanceof JobState.Incident) || !jobs.retry(id, retries)) {
      String state = JobText.state(jobs.find(id).map(JobInfo::state).orElse(job.state()));
      spec.commandLine()
          .getErr()
          .printf(
              "sluice: job %d (%s) is not an incident, it is %s; only incidents are retried%n",
              id, job.type(), state);
      return false;
    }
    spec.commandLine()
        .getOut()
        .printf("job %d (%s) waits again, due now, with %d retries%n", id, job.type(), retries);
    return true;
  }

  /** Says that no unfinished job has {@code id}; returns the exit code for it. */
  static int noSuchJob(CommandSpec spec, long id) {
    spec.commandLine()
        .getErr()
        .printf(
            "sluice: no unfinished job has id %d (a job that finished is deleted); see sluice jobs"
                + " list, or sluice jobs history%n",
            id);
    return ExitCodes.FAILED;
  }
}
