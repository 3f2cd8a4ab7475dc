package io.sluice.cli;

import picocli.CommandLine;

/** The {@code sluice} command's entry point. */
public final class Main {

  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line, ready to execute; tests set its output streams. */
  public static CommandLine commandLine() {
    return new CommandLine(new SluiceCommand())
        .setExecutionExceptionHandler(new ErrorReporter())
        .setCaseInsensitiveEnumValuesAllowed(true);
  }
}
