package io.sluice.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.config.ConfigLoader;
import io.sluice.config.Configuration;
import io.sluice.core.Application;
import io.sluice.core.store.JobStore;
import io.sluice.core.store.NewJob;
import io.sluice.core.store.NodeLease;
import io.sluice.core.store.Storage;
import io.sluice.core.store.Storages;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * The job store of a configuration file opened behind the command's back, for what the commands
 * cannot do themselves: make incidents, as a node whose job failed for good would.
 */
final class ConfiguredStores {

  private ConfiguredStores() {}

  /** Creates a job of {@code type} that fails at once with {@code error}; returns its id. */
  static long incident(Path config, String type, String error) {
    Configuration configuration =
        ConfigLoader.read(config, ConfiguredStores.class.getClassLoader());
    Application app = configuration.application().build();
    try (Storage storage =
        Storages.open(
            app.storageConfig(),
            app.storedValues(),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            ConfiguredStores.class.getClassLoader())) {
      JobStore store = configuration.jobs().store(storage, app.storedValues());
      long id = store.create(NewJob.of(type, "doomed").withMaxRetries(0));
      NodeLease lease = store.register("test-node", Duration.ofMinutes(1));
      if (store.claim(lease, Set.of(type), 100).stream().noneMatch(j -> j.id() == id)) {
        throw new AssertionError("job " + id + " could not be claimed to fail it");
      }
      store.fail(lease, id, error, Instant.now());
      store.deregister(lease);
      return id;
    }
  }
}
