package io.sluice.cli;

import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobTypeStats;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the {@code sluice jobs} commands that look and retry need of a job store: the store itself,
 * or, when {@code sluice run} holds an embedded one, its management API ({@link RemoteJobs}). The
 * commands write the same output either way.
 */
interface JobsView {

  /** As {@link JobStore#list}. */
  List<JobInfo> list(JobQuery query);

  /** As {@link JobStore#find}. */
  Optional<JobInfo> find(long id);

  /** As {@link JobStore#stats}. */
  List<JobTypeStats> stats();

  /** Now on the store's clock. */
  Instant now();

  /** As {@link JobStore#retry}: false when the job is no longer an incident. */
  boolean retry(long id, int retries);

  /** The view of an open {@code store}. */
  static JobsView of(JobStore store) {
    return new JobsView() {
      @Override
      public List<JobInfo> list(JobQuery query) {
        return store.list(query);
      }

      @Override
      public Optional<JobInfo> find(long id) {
        return store.find(id);
      }

      @Override
      public List<JobTypeStats> stats() {
        return store.stats();
      }

      @Override
      public Instant now() {
        return store.clock().instant();
      }

      @Override
      public boolean retry(long id, int retries) {
        return store.retry(id, retries);
      }
    };
  }
}
