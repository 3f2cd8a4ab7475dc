package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.Storage;
import io.sluice.testkit.StorageContract;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the parts of the {@link JobStoreContractTest} share: a new storage before each test (from
 * {@link StorageContract}) and the job store opened on it, both made by the implementation the part
 * is nested in, and the helpers that register nodes, claim, read states and lapse leases.
 *
 * <p>Due times are on {@link #clock}, which moves only when a test moves it; leases are on the
 * database's clock, so a test lapses one by renewing it for a millisecond and waits (Awaitility)
 * until the database sees it lapsed.
 */
public abstract class JobStoreContract extends StorageContract {

  /** The lease nodes register for: long enough never to lapse during a test by itself. */
  protected static final Duration LEASE = Duration.ofMinutes(1);

  /** What one priority level is worth: the aging the store must be opened with. */
  protected static final Duration AGING = Duration.ofSeconds(1);

  /** The one job type most tests create and claim. */
  protected static final Set<String> EMAILS = Set.of("email");

  /** The job store under test, on {@link #storage}. */
  protected JobStore store;

  /** The implementation under test: the {@link JobStoreContractTest} this part is nested in. */
  protected abstract JobStoreContractTest implementation();

  @Override
  protected final Storage newStorage(Clock clock) throws Exception {
    return implementation().newStorage(clock);
  }

  @Override
  protected final Storage reopen(Clock clock) throws Exception {
    return implementation().reopen(clock);
  }

  /** A new connection to the store's database, for the caller's own transaction. */
  protected final Connection connect() throws Exception {
    return implementation().connect();
  }

  /** Makes the database refuse, from now on, to insert a job of {@code type}. */
  protected final void refuseJobsOfType(String type) throws Exception {
    implementation().refuseJobsOfType(type);
  }

  /** Opens the job store on the new storage. */
  @BeforeEach
  protected final void openJobStore() {
    store = implementation().newJobStore(storage);
  }

  protected final NodeLease node(String name) {
    return store.register(name, LEASE);
  }

  protected final ClaimedJob claimOne(NodeLease lease) {
    List<ClaimedJob> claimed = store.claim(lease, EMAILS, 10);
    assertThat(claimed).as("the jobs %s claims", lease).hasSize(1);
    return claimed.getFirst();
  }

  protected final JobState state(long id) {
    return store.find(id).orElseThrow().state();
  }

  /** Lapses {@code lease} and waits until the database's clock sees it lapsed. */
  protected final void lapse(NodeLease lease, long heldJob) {
    assertThat(store.renew(lease, Duration.ofMillis(1))).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> store.reclaim().contains(heldJob));
  }
}
