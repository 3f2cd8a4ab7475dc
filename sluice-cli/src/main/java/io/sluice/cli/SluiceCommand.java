package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

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

  /**
   * Taken by {@link Main} before the command is parsed, since the log is set up as soon as anything
   * logs; declared here so that every command accepts it and lists it in its help.
   */
  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      scope = ScopeType.INHERIT,
      description =
          "text (the default) or json: one JSON object a line on standard error, with the flow,"
              + " message, job or batch instance being handled; or set SLUICE_LOG_FORMAT.")
  String logFormat;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
