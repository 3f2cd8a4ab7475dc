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

  /** How long the history keeps finished jobs unless set: 7 days. */
  public static final Duration DEFAULT_HISTORY = Duration.ofDays(7);

  /** The shortest the history keeps finished jobs, unless it keeps none: 1 minute. */
  public static final Duration MIN_HISTORY = Duration.ofMinutes(1);

  /** The longest the history keeps finished jobs: 365 days. */
  public static final Duration MAX_HISTORY = Duration.ofDays(365);

  /** What one priority level is worth in due time unless set: 1 s. */
  public static final Duration DEFAULT_PRIORITY_AGING = Duration.ofSeconds(1);

  private JobStores() {}

  /**
   * The job store of {@code storage}, payloads written with {@code values}, 1 s aging, history kept
   * {@link #DEFAULT_HISTORY}.
   */
  public static JobStore open(Storage storage, StoredValues values) {
    return open(storage, values, DEFAULT_PRIORITY_AGING);
  }

  /**
   * The job store of {@code storage}: a job of priority {@code p} is claimed as if it were due
   * {@code p × priorityAging} earlier ({@link ClaimOrder#PRIORITY}). Every node of one database
   * must use the same aging.
   */
  public static JobStore open(Storage storage, StoredValues values, Duration priorityAging) {
    return open(storage, values, ClaimOrder.PRIORITY, priorityAging, DEFAULT_HISTORY);
  }

  /**
   * The job store of {@code storage}, claiming in {@code order}: {@link ClaimOrder#PRIORITY} with
   * the default aging (1 s), or {@link ClaimOrder#DUE_DATE}. Every node of one database must use
   * the same order.
   */
  public static JobStore open(Storage storage, StoredValues values, ClaimOrder order) {
    Require.nonNull(order, "order");
    return open(storage, values, order, DEFAULT_PRIORITY_AGING, DEFAULT_HISTORY);
  }

  /**
   * The job store of {@code storage}, claiming in {@code order} ({@code priorityAging}, at least 1
   * ms, counts with {@link ClaimOrder#PRIORITY} only), keeping the entries of finished jobs in its
   * history for {@code history}: zero keeps none (nothing is written), else at most {@link
   * #MIN_HISTORY} to {@link #MAX_HISTORY}. Every node of one database must use the same order and
   * aging.
   */
  public static JobStore open(
      Storage storage,
      StoredValues values,
      ClaimOrder order,
      Duration priorityAging,
      Duration history) {
    Require.nonNull(values, "values");
    Require.nonNull(order, "order");
    Require.nonNull(priorityAging, "priorityAging");
    Require.nonNull(history, "history");
    if (priorityAging.isNegative() || priorityAging.toMillis() < 1) {
      throw new IllegalArgumentException(
          "priorityAging must be at least 1 ms, was " + priorityAging);
    }
    if (!history.isZero()
        && (history.compareTo(MIN_HISTORY) < 0 || history.compareTo(MAX_HISTORY) > 0)) {
      throw new IllegalArgumentException(
          "history must be zero (none kept) or from "
              + MIN_HISTORY
              + " to "
              + MAX_HISTORY
              + ", was "
              + history);
    }
    return new JdbcJobStore(
        JdbcAccess.of(storage),
        values,
        order == ClaimOrder.DUE_DATE ? Duration.ZERO : priorityAging,
        history);
  }
}
