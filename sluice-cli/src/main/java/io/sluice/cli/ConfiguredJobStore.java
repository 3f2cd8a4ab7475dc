package io.sluice.cli;

import io.sluice.core.store.StoreHeldException;
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

  /** Work that looks at jobs and retries them, on the store or through its owner's API. */
  @FunctionalInterface
  interface ViewWork {
    int run(JobsView jobs);
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

  /**
   * As {@link #use}, but when {@code sluice run} holds the embedded store, works through that
   * process's management API instead ({@link ManagementDiscovery}), sending the token {@code token}
   * gives; fails naming both when neither can be reached.
   */
  int view(ManagementTokenOption token, ViewWork work) {
    try {
      return use(store -> work.run(JobsView.of(store)));
    } catch (StoreHeldException held) {
      ManagementDiscovery.Found found = ManagementDiscovery.find(held.file());
      if (found.url() == null) {
        throw new StoreHeldException(
            held.getMessage() + ". Nor can its management API be asked: " + found.whyNot(),
            held.file());
      }
      return work.run(new RemoteJobs(found.url(), token.token(System.getenv()), held.file()));
    }
  }
}
