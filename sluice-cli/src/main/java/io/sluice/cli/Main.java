package io.sluice.cli;

import picocli.CommandLine;

/** The {@code sluice} command's entry point. */
public final class Main {

  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(commandLine(args).execute(args));
  }

  /** The command line with every command, ready to execute; tests set its output streams. */
  public static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /** The command line with the commands {@code args} names (see {@link CommandTree}). */
  static CommandLine commandLine(String[] args) {
    return CommandTree.of(args)
        .setExecutionExceptionHandler(new ErrorReporter())
        .setCaseInsensitiveEnumValuesAllowed(true);
  }
}
