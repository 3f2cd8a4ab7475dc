package io.sluice.jobs;

import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Require;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jobs.internal.JdbcJobStore;
import io.sluice.jobs.spi.JobStore;
import java.time.Duration;

/**
 * Opens the {@link JobStore} of a SQLite or PostgreSQL {@link Storage}: its tables are this
 * module's migrations ({@code JobSchema}), applied by the storage at open; its writes go through
 * the storage's writer.
 */
public final class JobStores {

  /** What one priority level is worth in due time unless set: 1 s. */
  public static final Duration DEFAULT_PRIORITY_AGING = Duration.ofSeconds(1);

  private JobStores() {}

  /** The job store of {@code storage}, payloads written with {@code values}, 1 s aging. */
  public static JobStore open(Storage storage, StoredValues values) {
    return open(storage, values, DEFAULT_PRIORITY_AGING);
  }

  /**
   * The job store of {@code storage}: a job of priority {@code p} is claimed as if it were due
   * {@code p × priorityAging} earlier ({@link ClaimOrder#PRIORITY}). Every node of one database
   * must use the same aging.
   */
  public static JobStore open(Storage storage, StoredValues values, Duration priorityAging) {
    Require.nonNull(values, "values");
    Require.nonNull(priorityAging, "priorityAging");
    if (priorityAging.isNegative() || priorityAging.toMillis() < 1) {
      throw new IllegalArgumentException(
          "priorityAging must be at least 1 ms, was " + priorityAging);
    }
    return new JdbcJobStore(JdbcAccess.of(storage), values, priorityAging);
  }

  /**
   * The job store of {@code storage}, claiming in {@code order}: {@link ClaimOrder#PRIORITY} with
   * the default aging (1 s), or {@link ClaimOrder#DUE_DATE}. Every node of one database must use
   * the same order.
   */
  public static JobStore open(Storage storage, StoredValues values, ClaimOrder order) {
    Require.nonNull(order, "order");
    return order == ClaimOrder.DUE_DATE
        ? new JdbcJobStore(JdbcAccess.of(storage), Require.nonNull(values, "values"), Duration.ZERO)
        : open(storage, values, DEFAULT_PRIORITY_AGING);
  }
}
