package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice jobs}: holds the commands that look at and change a store's durable jobs. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    header =
        "Lists, shows, counts, creates and retries the durable jobs of a store, and their history.",
    description = {
      "Works on the jobs in the store of a configuration file (sluice.store:",
      "embedded SQLite by default, or PostgreSQL). An embedded SQLite store belongs to one "
          + "process: stop sluice run first. On PostgreSQL these commands run beside the nodes."
    })
final class JobsCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
