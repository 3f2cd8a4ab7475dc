package io.sluice.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.app.Application;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The store of a configuration file, for the commands that work on what it keeps (jobs, batch
 * instances): its {@code sluice.store} (embedded SQLite by default) with the file's serialization,
 * opened for one command and closed after it.
 */
final class ConfiguredStorage {

  /** Work on the open storage, as the storage of an application without flows. */
  @FunctionalInterface
  interface Work {
    int run(Application application);
  }

  @Parameters(
      index = "0",
      paramLabel = "CONFIG",
      description = "The YAML configuration file; its sluice.store is the store worked on.")
  Path config;

  @Mixin ComponentClasspath classpath;

  @Mixin PlaceholderOptions placeholders;

  private ClassLoader loader;
  private Configuration configuration;
  private Application described;

  /** Where components are loaded from. */
  ClassLoader loader() {
    if (loader == null) {
      loader = classpath.loader();
    }
    return loader;
  }

  /** The configuration file, read once. */
  Configuration configuration() {
    if (configuration == null) {
      configuration = ConfigLoader.read(config, loader(), placeholders.sources());
    }
    return configuration;
  }

  /**
   * The file's application, built but never started, for its store settings and stored values; a
   * {@link ConfigurationException} when its store is {@code memory}, which keeps no {@code kept}.
   */
  Application durable(String kept) {
    if (described == null) {
      described = configuration().application().build();
    }
    if (described.storageConfig().type().equals(StorageConfig.MEMORY)) {
      throw new ConfigurationException(
          ConfigProblem.of(
              "sluice.store.type",
              "memory",
              "keeps no " + kept + " (" + config + "); use sqlite (the default) or postgresql"));
    }
    return described;
  }

  /**
   * Opens the store, runs {@code work} on an application that has it (and the file's stored values
   * and shutdown timeout, but none of its flows), and closes it; returns the work's exit code.
   */
  int use(String kept, Work work) {
    return use(durable(kept), loader(), work);
  }

  /**
   * Opens the store of {@code file} (an application built, not started), runs {@code work} on an
   * application that has it, and closes it; returns the work's exit code.
   */
  static int use(Application file, ClassLoader loader, Work work) {
    try (Storage storage =
            Storages.open(
                file.storageConfig(),
                file.storedValues(),
                new SimpleMeterRegistry(),
                Clock.systemUTC(),
                loader);
        Application application =
            Application.builder()
                .storage(storage)
                .storedValues(file.storedValues())
                .shutdownTimeout(file.shutdownTimeout())
                .build()) {
      return work.run(application);
    }
  }
}
