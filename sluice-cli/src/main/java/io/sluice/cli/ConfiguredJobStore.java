package io.sluice.cli;

import io.sluice.jobs.config.JobsConfig;
import io.sluice.jobs.spi.JobStore;
import picocli.CommandLine.Mixin;

/**
 * The job store of a configuration file, for the {@code sluice jobs} commands: its {@code
 * sluice.store} (embedded SQLite by default), with the file's serialization and {@code
 * sluice.jobs.priorityAging}, opened for one command and closed after it.
 */
final class ConfiguredJobStore {

  /** Work on an open job store. */
  @FunctionalInterface
  interface Work {
    int run(JobStore store);
  }

  @Mixin ConfiguredStorage storage;

  /** Opens the store, runs {@code work} on it and closes it; returns the work's exit code. */
  int use(Work work) {
    return storage.use(
        "jobs",
        application ->
            work.run(
                storage
                    .configuration()
                    .section(JobsConfig.class)
                    .store(application.storage(), application.storedValues())));
  }
}
