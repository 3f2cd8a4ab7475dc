package io.sluice.cli;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
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
      "Resumes the newest unfinished instance of the job with the same steps (one a crash,",
      "Ctrl+C or sluice batch stop left), or starts a new one; shows its progress, then its",
      "result. Ctrl+C or SIGTERM stops it gracefully: blocks in flight finish their step.",
      "Exits with 0 when the instance completed, 1 when it failed, 3 when it stopped."
    })
final class BatchRunCommand implements Callable<Integer> {

  @Mixin ConfiguredStorage store;

  @Option(
      names = "--job",
      paramLabel = "NAME",
      description = "The batch job to run; may be left out when the file declares one.")
  String job;

  @Mixin BatchProgressOption progress;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    BatchJob chosen = select(spec, store.configuration().section(BatchConfig.class), job);
    return store.use(
        "batch blocks",
        application -> {
          BatchEngine engine = BatchEngine.of(application);
          BatchInstance before =
              engine.instances(chosen.name(), 20).stream()
                  .filter(i -> i.state().resumable())
                  .findFirst()
                  .orElse(null);
          BatchEngine.Execution execution = engine.run(chosen);
          return watch(
              progress.console(spec),
              chosen,
              execution,
              before != null && before.id() == execution.instance() ? before : null,
              application.storage().describe());
        });
  }

  /** Shows the execution from its start to its result, stopping it at SIGTERM or SIGINT. */
  static int watch(
      BatchConsole console,
      BatchJob job,
      BatchEngine.Execution execution,
      BatchInstance before,
      String store) {
    ShutdownSignal.install(execution::stop);
    console.begins(job, execution.instance(), before, store);
    try {
      return console.watch(job, execution);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      execution.stop();
      return ExitCodes.STOPPED;
    }
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
