package io.sluice.cli;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.jobs.config.JobsConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice batch run}: runs a batch job to its end, resuming an unfinished instance. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    header = "Runs a batch job to its end, resuming an unfinished instance of it.",
    description = {
      "Resumes the newest unfinished instance of the job with the same steps and --param "
          + "(one a crash, Ctrl+C or sluice batch stop left), or starts a new one; shows its "
          + "progress, then its result. Ctrl+C or SIGTERM stops it gracefully: blocks in flight "
          + "finish their step.",
      "Exits with 0 when the instance completed, 1 when it failed, 3 when it stopped."
    })
final class BatchRunCommand implements Callable<Integer> {

  @Mixin ConfiguredStorage store;

  @Option(
      names = "--job",
      paramLabel = "NAME",
      description = "The batch job to run; may be left out when the file declares one.")
  String job;

  @Option(
      names = {"-p", "--param"},
      paramLabel = "NAME=VALUE",
      description = {
        "A parameter of the instance (repeatable), as Spring Batch's job parameters: kept "
            + "with it, and every record's message has it as a variable (vars.NAME, a text). An "
            + "unfinished instance is resumed only when it was started with the same parameters."
      })
  java.util.List<String> params = new java.util.ArrayList<>();

  @Mixin BatchProgressOption progress;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    BatchJob chosen = select(spec, store.configuration().section(BatchConfig.class), job);
    java.util.Map<String, Object> parameters = parameters(spec, params);
    return store.use(
        "batch blocks",
        application -> {
          // On a shared store, under a node lease with the sluice.jobs settings (node id, lease).
          BatchEngine engine =
              BatchEngine.of(
                  application,
                  () -> null,
                  store.configuration().section(JobsConfig.class)::executorConfig);
          BatchInstance before =
              engine.instances(chosen.name(), 20).stream()
                  .filter(i -> i.state().resumable())
                  .findFirst()
                  .orElse(null);
          BatchEngine.Execution execution = engine.run(chosen, parameters);
          return watch(
              progress.console(spec),
              chosen,
              execution,
              before != null && before.id() == execution.instance() ? before : null,
              application.storage().describe(),
              engine.shared());
        });
  }

  /** Shows the execution from its start to its result, stopping it at SIGTERM or SIGINT. */
  static int watch(
      BatchConsole console,
      BatchJob job,
      BatchEngine.Execution execution,
      BatchInstance before,
      String store) {
    return watch(console, job, execution, before, store, false);
  }

  /** As above; on a {@code shared} store, a live instance is said to be joined. */
  static int watch(
      BatchConsole console,
      BatchJob job,
      BatchEngine.Execution execution,
      BatchInstance before,
      String store,
      boolean shared) {
    ShutdownSignal.install(execution::stop);
    console.begins(job, execution.instance(), before, store, shared);
    try {
      return console.watch(job, execution);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      execution.stop();
      return ExitCodes.STOPPED;
    }
  }

  /**
   * The parameters {@code NAME=VALUE} give, in their order; a malformed one, or a name given twice,
   * is a usage error naming it.
   */
  static java.util.Map<String, Object> parameters(CommandSpec spec, java.util.List<String> given) {
    java.util.Map<String, Object> parameters = new java.util.LinkedHashMap<>();
    for (String one : given) {
      int equals = one.indexOf('=');
      String name = equals < 0 ? "" : one.substring(0, equals).strip();
      if (name.isEmpty() || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new ParameterException(
            spec.commandLine(),
            "--param '"
                + one
                + "': a parameter is NAME=VALUE, its name a letter or _ then letters, digits"
                + " or _ (an expression reads it as vars.NAME)");
      }
      if (parameters.put(name, one.substring(equals + 1)) != null) {
        throw new ParameterException(
            spec.commandLine(), "--param " + name + " is given twice; give each name once");
      }
    }
    return parameters;
  }

  /** The job named {@code name}, or the file's only one when it is null. */
  static BatchJob select(CommandSpec spec, BatchConfig batch, String name) {
    if (batch.jobs().isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "the configuration declares no batch job (batch:)");
    }
    if (name == null) {
      if (batch.jobs().size() > 1) {
        throw new ParameterException(
            spec.commandLine(),
            "--job is needed: the configuration declares "
                + batch.jobs().size()
                + " batch jobs: "
                + String.join(", ", batch.names()));
      }
      return batch.jobs().getFirst();
    }
    return batch
        .job(name)
        .orElseThrow(
            () ->
                new ParameterException(
                    spec.commandLine(),
                    "--job "
                        + name
                        + ": the configuration declares no such batch job; its batch jobs: "
                        + String.join(", ", batch.names())));
  }
}
