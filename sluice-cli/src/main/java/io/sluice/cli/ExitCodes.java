package io.sluice.cli;

/** The exit codes of the {@code sluice} command. */
final class ExitCodes {

  /** Everything went as asked. */
  static final int OK = 0;

  /** Sluice ran and failed: a flow would not start, or stopping left messages unfinished. */
  static final int FAILED = 1;

  /** The configuration or the command line is invalid; nothing was run. */
  static final int INVALID = 2;

  private ExitCodes() {}
}
