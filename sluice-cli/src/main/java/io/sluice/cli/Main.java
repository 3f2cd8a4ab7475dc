package io.sluice.cli;

import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;

/** The {@code sluice} command's entry point. */
public final class Main {

  private Main() {}

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    String logFormat = LogConfigurator.applyFormat(args);
    if (logFormat != null) {
      System.err.println("sluice: " + logFormat);
      System.exit(ExitCodes.INVALID);
    }
    LogContextFilter.install();
    CommandLine commandLine = commandLine(args);
    int code = commandLine.execute(args);
    commandLine.getOut().flush();
    commandLine.getErr().flush();
    System.exit(code);
  }

  /** The command line with every command, ready to execute; tests set its output streams. */
  public static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /**
   * The command line with the commands {@code args} names (see {@link CommandTree}), printing
   * through {@link MaskingWriter}s so that no secret value of a configuration is shown.
   */
  static CommandLine commandLine(String[] args) {
    return CommandTree.of(args)
        .setExecutionExceptionHandler(new ErrorReporter())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOut(
            MaskingWriter.printWriter(new OutputStreamWriter(System.out, Charset.defaultCharset())))
        .setErr(
            MaskingWriter.printWriter(
                new OutputStreamWriter(System.err, Charset.defaultCharset())));
  }
}
