package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice}: the top command, which only holds the others. */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Sluice: flows, batch jobs and durable jobs on the JVM, with nothing to tune.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done as asked",
      "1:Sluice ran and failed (a flow did not start, messages left unfinished at stop, a job"
          + " asked for does not exist or is not an incident, a batch instance failed)",
      "2:invalid configuration or command line",
      "3:a batch instance stopped before its end (resumable)"
    })
final class SluiceCommand implements Runnable {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
