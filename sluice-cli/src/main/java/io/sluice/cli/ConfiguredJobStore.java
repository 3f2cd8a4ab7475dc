package io.sluice.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.Application;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.store.JobStore;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

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

  @Parameters(
      index = "0",
      paramLabel = "CONFIG",
      description = "The YAML configuration file; its sluice.store holds the jobs.")
  Path config;

  @Mixin ComponentClasspath classpath;

  /** Opens the store, runs {@code work} on it and closes it; returns the work's exit code. */
  int use(Work work) {
    ClassLoader loader = classpath.loader();
    Configuration configuration = ConfigLoader.read(config, loader);
    Application app = configuration.application().build();
    if (app.storageConfig().type() == StorageConfig.Type.MEMORY) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "sluice.store.type",
              "memory",
              "keeps no jobs (" + config + "); use sqlite (the default) or postgresql"));
    }
    try (Storage storage =
        Storages.open(
            app.storageConfig(),
            app.storedValues(),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            loader)) {
      return work.run(configuration.jobs().store(storage, app.storedValues()));
    }
  }
}
