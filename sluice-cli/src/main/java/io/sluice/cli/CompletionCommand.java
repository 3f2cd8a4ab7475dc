package io.sluice.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice completion bash|zsh}: prints the shell completion script of every command, option
 * and option value, generated from the commands themselves so it cannot fall behind them.
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    header = "Prints a bash or zsh completion script for sluice.",
    description = {
      "Prints a script that completes the commands, options and option values of sluice"
          + " (configuration files complete as file names).",
      "bash: source <(sluice completion bash), or save it in"
          + " ~/.local/share/bash-completion/completions/sluice.",
      "zsh: source <(sluice completion zsh) in ~/.zshrc; the script turns on zsh's bash"
          + " completion support itself."
    })
final class CompletionCommand implements Callable<Integer> {

  /** The shells a script is made for. */
  enum Shell {
    bash,
    zsh
  }

  @Parameters(paramLabel = "SHELL", description = "bash or zsh (the same script serves both).")
  Shell shell;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // one script serves both: run by zsh, it loads zsh's bash completion support first
    var out = spec.commandLine().getOut();
    out.print(AutoComplete.bash("sluice", CommandTree.of()));
    out.flush();
    return ExitCodes.OK;
  }
}
