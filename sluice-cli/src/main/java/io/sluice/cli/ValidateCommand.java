package io.sluice.cli;

import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.jobs.config.JobsConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice validate}: checks a configuration and reports every problem at once. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    header = "Checks a configuration and lists every problem at once.",
    description = {
      "Checks a configuration file against the schema and the rules of every component,",
      "and lists every problem at once (path, value, rule, line). Runs nothing.",
      "Placeholders ($${NAME}, $${NAME:default}, $${env:NAME}, $${sys:name}, $${file:path},",
      "$${secret:...}) are resolved first; one that is not set is a problem at its line."
    })
final class ValidateCommand implements Callable<Integer> {

  @Parameters(paramLabel = "CONFIG", description = "The YAML configuration file.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Mixin PlaceholderOptions placeholders;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Configuration configuration =
        ConfigLoader.read(config, classpath.loader(), placeholders.sources());
    var application = configuration.application().build();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "%s is valid: %d flow(s)%s%n",
        config,
        application.flows().size(),
        application.flows().isEmpty()
            ? ""
            : ": "
                + String.join(
                    ", ",
                    application.flows().stream()
                        .map(f -> f.name() + " (" + f.strategy().name() + ")")
                        .toList()));
    if (configuration.section(JobsConfig.class).hasHandlers()) {
      out.printf("job handlers: %s%n", configuration.section(JobsConfig.class).handlers());
    }
    for (BatchJob job : configuration.section(BatchConfig.class).jobs()) {
      out.printf(
          "batch job %s: input %s, steps %s%n",
          job.name(),
          job.input().describe(),
          String.join(", ", job.steps().stream().map(BatchStep::name).toList()));
    }
    return ExitCodes.OK;
  }
}
