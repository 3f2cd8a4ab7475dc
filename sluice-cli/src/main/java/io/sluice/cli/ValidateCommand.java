package io.sluice.cli;

import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.jobs.config.JobsConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
      "Checks a configuration file against the schema and the rules of every component, and "
          + "lists every problem at once (path, value, rule, line). Runs nothing.",
      "Placeholders ($${NAME}, $${NAME:default}, $${env:NAME}, $${sys:name}, $${file:path}, "
          + "$${secret:...}) are resolved first; one that is not set is a problem at its line."
    })
final class ValidateCommand implements Callable<Integer> {

  @Parameters(paramLabel = "CONFIG", description = "The YAML configuration file.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Mixin PlaceholderOptions placeholders;

  @Mixin OutputOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (output.json()) {
      return json(spec.commandLine().getOut());
    }
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

  /**
   * The outcome as one JSON document on standard output, for a script or an editor: {@code
   * {"valid": true, "flows": [{"name", "strategy"}], "jobHandlers": {...}, "batchJobs": [{"name",
   * "input", "steps"}]}}, or {@code {"valid": false, "problems": [{"path", "value", "rule",
   * "source", "message"}]}} with exit code 2. Nothing goes to standard error.
   */
  private int json(PrintWriter out) throws Exception {
    Map<String, Object> json = OutputOption.object();
    try {
      Configuration configuration =
          ConfigLoader.read(config, classpath.loader(), placeholders.sources());
      var application = configuration.application().build();
      json.put("valid", true);
      json.put(
          "flows",
          application.flows().stream()
              .map(f -> Map.of("name", f.name(), "strategy", f.strategy().name()))
              .toList());
      json.put("jobHandlers", configuration.section(JobsConfig.class).handlers());
      List<Map<String, Object>> batchJobs = new ArrayList<>();
      for (BatchJob job : configuration.section(BatchConfig.class).jobs()) {
        Map<String, Object> batch = OutputOption.object();
        batch.put("name", job.name());
        batch.put("input", job.input().describe());
        batch.put("steps", job.steps().stream().map(BatchStep::name).toList());
        batchJobs.add(batch);
      }
      json.put("batchJobs", batchJobs);
      OutputOption.print(out, json);
      return ExitCodes.OK;
    } catch (ConfigurationException e) {
      json.put("valid", false);
      List<Map<String, Object>> problems = new ArrayList<>();
      for (ConfigProblem problem : e.problems()) {
        Map<String, Object> one = OutputOption.object();
        one.put("path", problem.path());
        one.put("value", problem.value() == null ? null : String.valueOf(problem.value()));
        one.put("rule", problem.rule());
        one.put("source", problem.source());
        one.put("message", problem.toString());
        problems.add(one);
      }
      json.put("problems", problems);
      OutputOption.print(out, json);
      return ExitCodes.INVALID;
    }
  }
}
