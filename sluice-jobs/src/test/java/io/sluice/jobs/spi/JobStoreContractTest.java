package io.sluice.jobs.spi;

import io.sluice.core.store.Storage;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/**
 * The contract every {@link JobStore} keeps, to extend once per database: jobs wait until due and
 * are claimed in aged-priority order, at most {@code max} of the handled types; unique keys create
 * one job; a job created in the caller's transaction exists only if it commits; completions,
 * failures and releases are fenced by the node's lease and epoch; a lapsed lease's jobs are
 * reclaimed; failures retry until they become incidents, which can be retried; competing nodes
 * never claim one job twice; jobs are listed by state, type and id page, and counted per type;
 * finished jobs are kept in a history that is searched, paged and pruned.
 *
 * <p>Extend it once per database: the contract's parts ({@link JobCreationContract}, {@link
 * JobClaimContract}, {@link JobLeaseContract}, {@link JobListingContract}, {@link
 * JobHistoryContract}) run as its nested classes, each test on a new storage this class makes.
 */
public abstract class JobStoreContractTest {

  /** A new, empty storage whose stores use this clock. Called before each test. */
  protected abstract Storage newStorage(Clock clock) throws Exception;

  /** The same storage opened again after close(), or null when it keeps nothing. */
  protected Storage reopen(Clock clock) throws Exception {
    return null;
  }

  /** The job store of {@code storage}, with {@link JobStoreContract#AGING} priority aging. */
  protected abstract JobStore newJobStore(Storage storage);

  /**
   * The job store of {@code storage} as {@link #newJobStore(Storage)}, keeping its history for
   * {@code history} (zero: none).
   */
  protected abstract JobStore newJobStore(Storage storage, Duration history);

  /** A new connection to the store's database, for the caller's own transaction. */
  protected abstract Connection connect() throws Exception;

  /**
   * Makes the database refuse, from now on, to insert a job of {@code type} (a trigger raising an
   * error), as a broken write would be refused.
   */
  protected abstract void refuseJobsOfType(String type) throws Exception;

  /** {@link JobCreationContract} on this implementation. */
  @Nested
  public class Creation extends JobCreationContract {
    @Override
    protected JobStoreContractTest implementation() {
      return JobStoreContractTest.this;
    }
  }

  /** {@link JobClaimContract} on this implementation. */
  @Nested
  public class Claims extends JobClaimContract {
    @Override
    protected JobStoreContractTest implementation() {
      return JobStoreContractTest.this;
    }
  }

  /** {@link JobLeaseContract} on this implementation. */
  @Nested
  public class Leases extends JobLeaseContract {
    @Override
    protected JobStoreContractTest implementation() {
      return JobStoreContractTest.this;
    }
  }

  /** {@link JobHistoryContract} on this implementation. */
  @Nested
  public class History extends JobHistoryContract {
    @Override
    protected JobStoreContractTest implementation() {
      return JobStoreContractTest.this;
    }
  }

  /** {@link JobListingContract} on this implementation. */
  @Nested
  public class Listing extends JobListingContract {
    @Override
    protected JobStoreContractTest implementation() {
      return JobStoreContractTest.this;
    }
  }
}
