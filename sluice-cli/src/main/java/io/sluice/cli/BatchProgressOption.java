package io.sluice.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The {@code --progress} option of the commands that run a batch job. */
final class BatchProgressOption {

  @Option(
      names = "--progress",
      defaultValue = "auto",
      paramLabel = "STYLE",
      description =
          "How progress is shown: bar (redrawn in place), lines (every few seconds), none, or"
              + " auto: a bar on a terminal, lines otherwise (default ${DEFAULT-VALUE}).")
  ProgressDisplay.Style style;

  /** The console of {@code spec}'s command with this style. */
  BatchConsole console(CommandSpec spec) {
    return new BatchConsole(spec.commandLine().getOut(), style);
  }
}
