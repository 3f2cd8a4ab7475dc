package io.sluice.cli;

/** The exit codes of the {@code sluice} command. */
final class ExitCodes {

  /** Everything went as asked. */
  static final int OK = 0;

  /**
   * Sluice ran and failed: a flow would not start, stopping left messages unfinished, a batch
   * instance failed.
   */
  static final int FAILED = 1;

  /** The configuration or the command line is invalid; nothing was run. */
  static final int INVALID = 2;

  /** A batch instance stopped before its end (Ctrl+C, SIGTERM, sluice batch stop): resumable. */
  static final int STOPPED = 3;

  private ExitCodes() {}
}
