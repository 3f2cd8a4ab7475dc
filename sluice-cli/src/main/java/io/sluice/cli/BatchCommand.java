package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice batch}: holds the commands that run, list, resume and stop batch jobs. */
@Command(
    name = "batch",
    mixinStandardHelpOptions = true,
    header = "Runs, lists, resumes and stops the batch jobs of a configuration; lists failures.",
    description = {
      "Works on the batch jobs of a configuration file (batch:) and their instances in its "
          + "store (sluice.store: embedded SQLite by default, or PostgreSQL). run and resume own "
          + "an embedded store while they run; list, failures and stop work beside them."
    })
final class BatchCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
