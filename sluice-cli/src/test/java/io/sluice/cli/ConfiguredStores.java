package io.sluice.cli;

import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The job store of a configuration file opened as the commands open it, for what they cannot do
 * themselves: make incidents, as a node whose job failed for good would, and complete jobs.
 */
final class ConfiguredStores {

  private ConfiguredStores() {}

  /** Creates a job of {@code type} that fails at once with {@code error}; returns its id. */
  static long incident(Path config, String type, String error) {
    return ended(
        config, type, "doomed", (store, lease, id) -> store.fail(lease, id, error, Instant.now()));
  }

  /** Creates a job of {@code type} with {@code payload} and completes it; returns its id. */
  static long completed(Path config, String type, String payload) {
    return ended(config, type, payload, (store, lease, id) -> store.complete(lease, List.of(id)));
  }

  /** How a claimed job ends. */
  private interface End {
    void end(JobStore store, NodeLease lease, long id);
  }

  private static long ended(Path config, String type, String payload, End end) {
    ConfiguredJobStore configured = new ConfiguredJobStore();
    configured.storage = new ConfiguredStorage();
    configured.storage.config = config;
    configured.storage.classpath = new ComponentClasspath();
    configured.storage.placeholders = new PlaceholderOptions();
    AtomicLong id = new AtomicLong();
    configured.use(
        store -> {
          id.set(store.create(NewJob.of(type, payload).withMaxRetries(0)));
          NodeLease lease = store.register("test-node", Duration.ofMinutes(1));
          if (store.claim(lease, Set.of(type), 100).stream().noneMatch(j -> j.id() == id.get())) {
            throw new AssertionError("job " + id + " could not be claimed to end it");
          }
          end.end(store, lease, id.get());
          store.deregister(lease);
          return ExitCodes.OK;
        });
    return id.get();
  }
}
