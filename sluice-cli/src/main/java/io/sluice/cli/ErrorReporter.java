package io.sluice.cli;

import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import picocli.CommandLine;

/**
 * Turns an exception that escaped a command into one clear message and an exit code: 2 for an
 * invalid configuration, 1 for anything else. Sluice's own errors are shown without a stack trace
 * (their message says what to do); unexpected ones with it.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    var err = commandLine.getErr();
    if (e instanceof ConfigurationException config) {
      err.println(config.getMessage());
      return ExitCodes.INVALID;
    }
    if (e instanceof SluiceException sluice) {
      err.println("sluice: " + sluice.getMessage());
      return ExitCodes.FAILED;
    }
    err.println("sluice: unexpected error: " + e);
    e.printStackTrace(err);
    return ExitCodes.FAILED;
  }
}
