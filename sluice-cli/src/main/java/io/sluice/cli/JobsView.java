package io.sluice.cli;

import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobQuery;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.JobTypeStats;
import java.time.Duration;
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

  /** As {@link JobStore#retryIncidents}: how many incidents of {@code type} wait again. */
  int retryIncidents(String type, int retries);

  /** As {@link JobStore#history}, with the store's {@link JobStore#historyRetention}. */
  HistoryPage history(HistoryQuery query);

  /**
   * A page of the history: its entries, newest first, and how long the store keeps them (zero: it
   * keeps none).
   */
  record HistoryPage(List<FinishedJob> entries, Duration retention) {}

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

      @Override
      public int retryIncidents(String type, int retries) {
        return store.retryIncidents(type, retries);
      }

      @Override
      public HistoryPage history(HistoryQuery query) {
        return new HistoryPage(store.history(query), store.historyRetention());
      }
    };
  }
}
