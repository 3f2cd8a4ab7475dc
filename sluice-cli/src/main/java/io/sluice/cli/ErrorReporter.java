package io.sluice.cli;

import io.sluice.config.Secrets;
import io.sluice.core.ConfigurationException;
import io.sluice.core.SluiceException;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Turns an exception that escaped a command into one clear message and an exit code: 2 for an
 * invalid configuration, 1 for anything else. Sluice's own errors are shown without a stack trace
 * (their message says what to do); unexpected ones with it. A secret value ({@link Secrets}) in a
 * message or a stack trace is masked: a store's error may quote its URL or user.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    var err = commandLine.getErr();
    if (e instanceof ConfigurationException config) {
      err.println(Secrets.mask(config.getMessage()));
      return ExitCodes.INVALID;
    }
    if (e instanceof SluiceException sluice) {
      err.println(Secrets.mask("sluice: " + sluice.getMessage()));
      return ExitCodes.FAILED;
    }
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    err.print(Secrets.mask("sluice: unexpected error: " + e + System.lineSeparator() + trace));
    err.flush();
    return ExitCodes.FAILED;
  }
}
