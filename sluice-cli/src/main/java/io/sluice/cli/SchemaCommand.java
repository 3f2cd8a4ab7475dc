package io.sluice.cli;

import io.sluice.config.ConfigLoader;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice schema}: prints the JSON Schema of the configuration, for IDEs. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    header = "Prints the JSON Schema of configuration files.",
    description = "Prints the JSON Schema of Sluice configuration files (for IDE completion).")
final class SchemaCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().println(ConfigLoader.schema());
    return ExitCodes.OK;
  }
}
