package io.sluice.cli;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchInstance;
import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice batch resume}: resumes one instance where it stopped. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    header = "Resumes a batch instance where it stopped and runs it to its end.",
    description = {
      "Resumes the instance with this id (see sluice batch list) with its job of the "
          + "configuration, which must have the steps and block size it began with. Shows "
          + "progress and the result as sluice batch run does, with the same exit codes."
    })
final class BatchResumeCommand implements Callable<Integer> {

  @Mixin ConfiguredStorage store;

  @Parameters(index = "1", paramLabel = "ID", description = "The instance's id.")
  long id;

  @Mixin BatchProgressOption progress;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return store.use(
        "batch blocks",
        application -> {
          // On a shared store, under a node lease with the sluice.jobs settings (node id, lease).
          BatchEngine engine =
              BatchEngine.of(
                  application,
                  () -> null,
                  store.configuration().section(io.sluice.jobs.config.JobsConfig.class)
                      ::executorConfig);
          BatchInstance before = engine.instance(id).orElse(null);
          if (before == null) {
            return BatchStopCommand.noSuchInstance(spec, id, application.storage().describe());
          }
          BatchConfig batch = store.configuration().section(BatchConfig.class);
          BatchJob job =
              batch
                  .job(before.job())
                  .orElseThrow(
                      () ->
                          new ConfigurationException(
                              ConfigProblem.of(
                                  "batch",
                                  before.job(),
                                  "declares no batch job of this name, which instance "
                                      + id
                                      + " belongs to; its batch jobs: "
                                      + String.join(", ", batch.names()))));
          return BatchRunCommand.watch(
              progress.console(spec),
              job,
              engine.resume(id, job),
              before,
              application.storage().describe());
        });
  }
}
