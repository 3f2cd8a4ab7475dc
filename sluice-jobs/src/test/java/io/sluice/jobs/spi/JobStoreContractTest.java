package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.Storage;
import io.sluice.core.store.StoreException;
import io.sluice.testkit.StorageContract;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link JobStore} keeps, to extend once per database: jobs wait until due and
 * are claimed in aged-priority order, at most {@code max} of the handled types; unique keys create
 * one job; a job created in the caller's transaction exists only if it commits; completions,
 * failures and releases are fenced by the node's lease and epoch; a lapsed lease's jobs are
 * reclaimed; failures retry until they become incidents, which can be retried; competing nodes
 * never claim one job twice; jobs are listed by state, type and id page, and counted per type.
 *
 * <p>Due times are on {@link #clock}, which moves only when a test moves it; leases are on the
 * database's clock, so a test lapses one by renewing it for a millisecond and waits (Awaitility)
 * until the database sees it lapsed.
 */
public abstract class JobStoreContractTest extends StorageContract {

  /** The lease nodes register for: long enough never to lapse during a test by itself. */
  protected static final Duration LEASE = Duration.ofMinutes(1);

  /** What one priority level is worth: the aging the store must be opened with. */
  protected static final Duration AGING = Duration.ofSeconds(1);

  private static final Set<String> EMAILS = Set.of("email");

  /** The job store under test, on {@link #storage}. */
  protected JobStore store;

  /** The job store of {@code storage}, with {@link #AGING} priority aging. */
  protected abstract JobStore newJobStore(Storage storage);

  /** A new connection to the store's database, for the caller's own transaction. */
  protected abstract Connection connect() throws Exception;

  /**
   * Makes the database refuse, from now on, to insert a job of {@code type} (a trigger raising an
   * error), as a broken write would be refused.
   */
  protected abstract void refuseJobsOfType(String type) throws Exception;

  /** Opens the job store on the new storage. */
  @BeforeEach
  protected final void openJobStore() {
    store = newJobStore(storage);
  }

  private NodeLease node(String name) {
    return store.register(name, LEASE);
  }

  private ClaimedJob claimOne(NodeLease lease) {
    List<ClaimedJob> claimed = store.claim(lease, EMAILS, 10);
    assertThat(claimed).as("the jobs %s claims", lease).hasSize(1);
    return claimed.getFirst();
  }

  private JobState state(long id) {
    return store.find(id).orElseThrow().state();
  }

  /** Lapses {@code lease} and waits until the database's clock sees it lapsed. */
  private void lapse(NodeLease lease, long heldJob) {
    assertThat(store.renew(lease, Duration.ofMillis(1))).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> store.reclaim().contains(heldJob));
  }

  @Test
  public void aJobWaitsUntilDueThenIsClaimedWithItsPayloadAndCompletedOnce() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "to bob").withDueAt(clock.instant().plusSeconds(60)));

    assertThat(store.claim(a, EMAILS, 10)).as("not due yet").isEmpty();
    assertThat(state(id)).isEqualTo(new JobState.Waiting(clock.instant().plusSeconds(60)));
    clock.advance(Duration.ofSeconds(60));
    ClaimedJob job = claimOne(a);

    assertThat(job.id()).isEqualTo(id);
    assertThat(job.type()).isEqualTo("email");
    assertThat(job.payload().read()).isEqualTo("to bob");
    assertThat(job.attempt()).isEqualTo(1);
    assertThat(job.retriesLeft()).isEqualTo(NewJob.DEFAULT_MAX_RETRIES);
    assertThat(job.dueAt()).isEqualTo(clock.instant());
    assertThat(job.lease()).isEqualTo(a);
    assertThat(state(id)).isEqualTo(new JobState.Running(a));
    assertThat(store.claim(a, EMAILS, 10)).as("a running job is not claimed again").isEmpty();

    assertThat(store.complete(a, List.of(id))).containsExactly(id);
    assertThat(store.find(id)).isEmpty();
    assertThat(store.complete(a, List.of(id))).as("a second completion").isEmpty();
  }

  @Test
  public void aClaimTakesAtMostMaxJobsAndOnlyOfTheTypesAsked() {
    NodeLease a = node("node-a");
    for (int i = 0; i < 5; i++) {
      store.create(NewJob.of("email", i));
    }
    long report = store.create(NewJob.of("report", "monthly"));

    assertThat(store.claim(a, EMAILS, 3)).hasSize(3);
    assertThat(store.claim(a, EMAILS, 3)).hasSize(2);
    assertThat(store.claim(a, EMAILS, 3)).isEmpty();
    assertThat(state(report)).isInstanceOf(JobState.Waiting.class);
    assertThat(store.claim(a, Set.of("report", "email"), 3))
        .extracting(ClaimedJob::id)
        .containsExactly(report);
  }

  @Test
  public void higherPrioritiesAreClaimedFirstUnlessALowerOneWasDueLongerThanTheirAging() {
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    long low = store.create(NewJob.of("email", "low").withDueAt(now.minusSeconds(5)));
    long high = store.create(NewJob.of("email", "high").withPriority(10));
    long middle = store.create(NewJob.of("email", "middle").withPriority(3));
    long oldLow = store.create(NewJob.of("email", "old low").withDueAt(now.minusSeconds(11)));

    List<ClaimedJob> claimed = store.claim(a, EMAILS, 10);

    // Sort keys: oldLow now-11 s, high now-10 s, low now-5 s, middle now-3 s.
    assertThat(claimed).extracting(ClaimedJob::id).containsExactly(oldLow, high, low, middle);
  }

  @Test
  public void aLowPriorityJobWaitsABoundedTimeUnderAFloodOfHighPriorityJobs() {
    NodeLease a = node("node-a");
    long low = store.create(NewJob.of("email", "low"));
    clock.advance(AGING.multipliedBy(NewJob.MAX_PRIORITY).minusSeconds(1));
    store.createAll(
        IntStream.range(0, 50)
            .mapToObj(i -> NewJob.of("email", i).withPriority(NewJob.MAX_PRIORITY))
            .toList());
    assertThat(store.claim(a, EMAILS, 50)).extracting(ClaimedJob::id).doesNotContain(low);

    clock.advance(Duration.ofSeconds(2));
    store.createAll(
        IntStream.range(0, 50)
            .mapToObj(i -> NewJob.of("email", i).withPriority(NewJob.MAX_PRIORITY))
            .toList());

    assertThat(store.claim(a, EMAILS, 1))
        .as("once due for longer than the highest priority's aging, it goes first")
        .extracting(ClaimedJob::id)
        .containsExactly(low);
  }

  @Test
  public void aUniqueKeyCreatesOneJobUntilThatJobFinishes() {
    NodeLease a = node("node-a");
    long first = store.create(NewJob.of("email", "first").withUniqueKey("order-7"));
    long again = store.create(NewJob.of("email", "again").withUniqueKey("order-7"));
    List<Long> batch =
        store.createAll(
            List.of(
                NewJob.of("email", "other").withUniqueKey("order-8"),
                NewJob.of("email", "twice").withUniqueKey("order-8"),
                NewJob.of("email", "third").withUniqueKey("order-7")));

    assertThat(again).isEqualTo(first);
    assertThat(batch.get(1)).isEqualTo(batch.get(0));
    assertThat(batch.get(2)).isEqualTo(first);
    List<ClaimedJob> claimed = store.claim(a, EMAILS, 10);
    assertThat(claimed).extracting(j -> j.payload().read()).containsExactly("first", "other");

    store.complete(a, List.of(first));
    long later = store.create(NewJob.of("email", "later").withUniqueKey("order-7"));
    assertThat(later).isNotEqualTo(first);
  }

  @Test
  public void createAllOfNoJobCreatesNothingAndOfOneJobCreatesIt() {
    assertThat(store.createAll(List.of())).isEmpty();
    assertThat(store.waitingByType()).isEmpty();

    List<Long> ids = store.createAll(List.of(NewJob.of("email", "only")));

    assertThat(ids).hasSize(1);
    ClaimedJob job = claimOne(node("node-a"));
    assertThat(job.id()).isEqualTo(ids.getFirst());
    assertThat(job.payload().read()).isEqualTo("only");
  }

  @Test
  public void aLargeListOfKeyedAndUnkeyedJobsGetsItsIdsInOrderAndCreatesEachKeyOnce() {
    long existing = store.create(NewJob.of("email", "existing").withUniqueKey("key-0"));
    // 25,000 jobs, every third keyed: keys key-0 to key-4999, each but key-0 first met in the
    // list's first 15,000 jobs and again some 15,000 jobs later (past any chunk of a store that
    // writes the list in parts); key-0 is taken in the table.
    int count = 25_000;
    List<NewJob> jobs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      NewJob job = NewJob.of("email", "job-" + i);
      jobs.add(i % 3 == 0 ? job.withUniqueKey("key-" + (i / 3) % 5_000) : job);
    }

    List<Long> ids = store.createAll(jobs);

    assertThat(ids).hasSize(count);
    Map<String, Long> idOfKey = new HashMap<>(Map.of("key-0", existing));
    Map<Long, Object> payloadOfId = new HashMap<>(Map.of(existing, "existing"));
    for (int i = 0; i < count; i++) {
      String key = jobs.get(i).uniqueKey();
      Long first = key == null ? null : idOfKey.putIfAbsent(key, ids.get(i));
      if (first == null) {
        assertThat(payloadOfId.put(ids.get(i), "job-" + i))
            .as("job %d's id is its own", i)
            .isNull();
      } else {
        assertThat(ids.get(i)).as("job %d, key %s", i, key).isEqualTo(first);
      }
    }
    assertThat(payloadOfId)
        .as("the existing job, 16,666 unkeyed and 4,999 keyed jobs")
        .hasSize(1 + 16_666 + 4_999);
    Map<Long, Object> claimed = new HashMap<>();
    store
        .claim(node("node-a"), EMAILS, count + 1)
        .forEach(job -> claimed.put(job.id(), job.payload().read()));
    assertThat(claimed).as("every job created once, with its own payload").isEqualTo(payloadOfId);
  }

  @Test
  public void aCreateAllTheDatabaseRefusesCreatesNothingAndLeavesNothingBehind() throws Exception {
    refuseJobsOfType("refused");
    List<NewJob> refused =
        List.of(
            NewJob.of("email", "before"),
            NewJob.of("refused", "refused"),
            NewJob.of("email", "after"));

    assertThatThrownBy(() -> store.createAll(refused)).isInstanceOf(StoreException.class);
    List<Long> next = store.createAll(List.of(NewJob.of("email", "next")));

    assertThat(store.waitingByType()).containsExactly(Map.entry("email", 1L));
    ClaimedJob job = claimOne(node("node-a"));
    assertThat(job.id()).isEqualTo(next.getFirst());
    assertThat(job.payload().read()).isEqualTo("next");
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT id FROM sluice_job_payload")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(job.id());
      assertThat(rs.next()).as("a payload left by the refused write").isFalse();
    }
  }

  @Test
  public void aJobCreatedInTheCallersTransactionExistsOnlyIfTheCallerCommits() throws Exception {
    NodeLease a = node("node-a");
    long committed;
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      store.create(connection, NewJob.of("email", "rolled back"));
      connection.rollback();
      committed = store.create(connection, NewJob.of("email", "committed"));
      assertThat(store.find(committed)).as("not visible before the commit").isEmpty();
      connection.commit();
    }

    assertThat(store.waitingByType())
        .as("the rolled back job is not there")
        .containsExactly(Map.entry("email", 1L));
    assertThat(claimOne(a).payload().read()).isEqualTo("committed");
  }

  @Test
  public void aJobCompletedInTheCallersTransactionIsFinishedOnlyIfTheCallerCommits()
      throws Exception {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "once"));
    claimOne(a);

    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      assertThat(store.complete(connection, a, id)).isTrue();
      connection.rollback();
      assertThat(state(id)).as("rolled back: still held").isEqualTo(new JobState.Running(a));
      assertThat(store.complete(connection, a, id)).isTrue();
      connection.commit();
    }

    assertThat(store.find(id)).isEmpty();
    assertThat(store.complete(a, List.of(id))).as("nothing left to complete in bulk").isEmpty();
  }

  @Test
  public void aJobANodeNoLongerHoldsIsNotCompletedInTheCallersTransaction() throws Exception {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "once"));
    claimOne(a);
    lapse(a, id);
    NodeLease b = node("node-b");
    claimOne(b);

    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      assertThat(store.complete(connection, a, id)).isFalse();
      connection.commit();
    }

    assertThat(state(id)).isEqualTo(new JobState.Running(b));
  }

  @Test
  public void aClaimCompletesWhatTheNodeFinishedInTheSameCommitButNotWhatItNoLongerHolds() {
    NodeLease a = node("node-a");
    for (int i = 0; i < 4; i++) {
      store.create(NewJob.of("email", i));
    }
    List<Long> first = store.claim(a, EMAILS, 2).stream().map(ClaimedJob::id).toList();
    NodeLease b = node("node-b");
    long others = store.claim(b, EMAILS, 1).getFirst().id();

    JobStore.ClaimResult next =
        store.claim(a, EMAILS, 5, List.of(first.get(0), first.get(1), others));

    assertThat(next.completed()).containsExactlyInAnyOrderElementsOf(first);
    assertThat(next.claimed()).hasSize(1);
    assertThat(next.claimed().getFirst().id()).isNotIn(first).isNotEqualTo(others);
    assertThat(store.find(first.get(0))).isEmpty();
    assertThat(store.find(first.get(1))).isEmpty();
    assertThat(state(others)).as("node-b's job").isEqualTo(new JobState.Running(b));
    assertThat(store.claim(a, EMAILS, 5, List.of(first.get(0))).completed())
        .as("a second completion")
        .isEmpty();
  }

  @Test
  public void aCompletionFromANodeWhoseLeaseWasTakenOverChangesNothing() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "once"));
    claimOne(a);

    lapse(a, id);
    NodeLease b = node("node-b");
    ClaimedJob again = claimOne(b);

    assertThat(again.id()).isEqualTo(id);
    assertThat(again.attempt()).isEqualTo(2);
    assertThat(store.complete(a, List.of(id))).as("the zombie's completion").isEmpty();
    assertThat(store.fail(a, id, "late", clock.instant())).isEqualTo(JobStore.FailOutcome.NOT_HELD);
    assertThat(store.release(a, List.of(id))).isZero();
    assertThat(state(id)).isEqualTo(new JobState.Running(b));
    assertThat(store.complete(b, List.of(id))).containsExactly(id);
  }

  @Test
  public void aNodesRankCountsTheLiveNodesBeforeItByName() {
    NodeLease b = node("node-b");
    assertThat(store.rank(b)).as("alone").isZero();
    NodeLease a = node("node-a");
    NodeLease c = node("node-c");

    assertThat(List.of(store.rank(a), store.rank(b), store.rank(c))).containsExactly(0, 1, 2);

    long held = store.create(NewJob.of("email", "x"));
    claimOne(a);
    lapse(a, held);
    assertThat(List.of(store.rank(b), store.rank(c))).as("node-a lapsed").containsExactly(0, 1);
  }

  @Test
  public void aLapsedLeaseIsNotRenewedAndClaimsNothingUntilTheNodeRegistersAgain() {
    NodeLease a = node("node-a");
    long held = store.create(NewJob.of("email", "held"));
    claimOne(a);
    lapse(a, held);
    store.create(NewJob.of("email", "new"));

    assertThat(store.renew(a, LEASE)).isFalse();
    assertThat(store.claim(a, EMAILS, 10)).isEmpty();

    NodeLease again = store.register("node-a", LEASE);
    assertThat(again.epoch()).isGreaterThan(a.epoch());
    assertThat(store.claim(again, EMAILS, 10)).hasSize(2);
    assertThat(store.renew(again, LEASE)).isTrue();
  }

  @Test
  public void aNodeRegisteringAgainCannotFinishWhatItsEarlierEpochHeld() {
    NodeLease before = node("node-a");
    long id = store.create(NewJob.of("email", "x"));
    claimOne(before);

    NodeLease after = store.register("node-a", LEASE);

    assertThat(store.reclaim()).containsExactly(id);
    assertThat(store.complete(before, List.of(id))).isEmpty();
    assertThat(claimOne(after).id()).isEqualTo(id);
    assertThat(store.reclaim()).as("held by a live lease").isEmpty();
  }

  @Test
  public void aFailedJobIsRetriedAfterItsBackoffThenBecomesAnIncidentWhichCanBeRetried() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "flaky").withMaxRetries(1));
    claimOne(a);

    assertThat(store.fail(a, id, "timeout", clock.instant().plusSeconds(30)))
        .isEqualTo(JobStore.FailOutcome.RETRY);
    assertThat(store.claim(a, EMAILS, 10)).as("during the backoff").isEmpty();
    JobInfo waiting = store.find(id).orElseThrow();
    assertThat(waiting.retriesLeft()).isZero();
    assertThat(waiting.lastError()).isEqualTo("timeout");
    clock.advance(Duration.ofSeconds(30));
    ClaimedJob second = claimOne(a);
    assertThat(second.attempt()).isEqualTo(2);

    assertThat(store.fail(a, id, "timeout again", clock.instant()))
        .isEqualTo(JobStore.FailOutcome.INCIDENT);
    assertThat(state(id)).isEqualTo(new JobState.Incident("timeout again"));
    assertThat(store.incidents(10)).extracting(JobInfo::id).containsExactly(id);
    assertThat(store.claim(a, EMAILS, 10)).as("an incident is not claimed").isEmpty();

    assertThat(store.retry(id, 2)).isTrue();
    assertThat(store.retry(id, 2)).as("no longer an incident").isFalse();
    assertThat(store.incidents(10)).isEmpty();
    ClaimedJob third = claimOne(a);
    assertThat(third.retriesLeft()).isEqualTo(2);
    assertThat(third.attempt()).isEqualTo(3);
  }

  @Test
  public void aJobWhosePayloadCannotBeReadBecomesAnIncidentAtOnce() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "x"));
    claimOne(a);

    assertThat(store.incident(a, id, "CorruptRecordException: bad magic")).isTrue();

    assertThat(state(id)).isEqualTo(new JobState.Incident("CorruptRecordException: bad magic"));
    assertThat(store.incident(a, id, "again")).as("no longer held").isFalse();
  }

  @Test
  public void releasedJobsAreClaimableAtOnceWithoutCountingTheAttempt() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "x"));
    claimOne(a);

    assertThat(store.release(a, List.of(id))).isEqualTo(1);

    assertThat(claimOne(a).attempt()).isEqualTo(1);
  }

  @Test
  public void aNodeThatDeregistersHandsBackWhatItHeld() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "x"));
    claimOne(a);

    store.deregister(a);

    assertThat(state(id)).isInstanceOf(JobState.Waiting.class);
    assertThat(store.renew(a, LEASE)).isFalse();
    assertThat(claimOne(node("node-b")).id()).isEqualTo(id);
  }

  /** One claim of up to 7 jobs; empty when there was nothing left to claim. */
  @FunctionalInterface
  private interface Claimer {
    List<ClaimedJob> claim(NodeLease lease) throws Exception;
  }

  @Test
  public void competingNodesNeverClaimTheSameJob() throws Exception {
    competeFor(lease -> store.claim(lease, EMAILS, 7));
  }

  @Test
  public void competingOptimisticNodesNeverClaimTheSameJob() throws Exception {
    competeFor(
        lease -> {
          // A cycle that lost every candidate to another node claims nothing but is no reason
          // to stop: only one that found no candidate is.
          JobStore.ClaimAttempt attempt;
          do {
            attempt = store.claimOptimistically(lease, EMAILS, 7);
          } while (attempt.jobs().isEmpty() && attempt.lockFailures() > 0);
          return attempt.jobs();
        });
  }

  private void competeFor(Claimer claimer) throws Exception {
    int jobs = 400;
    store.createAll(IntStream.range(0, jobs).mapToObj(i -> NewJob.of("email", i)).toList());
    List<NodeLease> nodes = List.of(node("node-a"), node("node-b"), node("node-c"));
    Map<Long, NodeLease> owners = new ConcurrentHashMap<>();
    List<Long> duplicates = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService threads = Executors.newFixedThreadPool(6)) {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        NodeLease lease = nodes.get(t % nodes.size());
        running.add(
            threads.submit(
                () -> {
                  start.await();
                  for (List<ClaimedJob> got = claimer.claim(lease);
                      !got.isEmpty();
                      got = claimer.claim(lease)) {
                    for (ClaimedJob job : got) {
                      if (owners.putIfAbsent(job.id(), lease) != null) {
                        synchronized (duplicates) {
                          duplicates.add(job.id());
                        }
                      }
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : running) {
        future.get();
      }
    }

    assertThat(duplicates).isEmpty();
    assertThat(owners).hasSize(jobs);
    int completed = 0;
    for (NodeLease lease : nodes) {
      Set<Long> held = new HashSet<>();
      owners.forEach((id, owner) -> held.add(owner.equals(lease) ? id : -1L));
      held.remove(-1L);
      completed += store.complete(lease, held).size();
    }
    assertThat(completed).isEqualTo(jobs);
  }

  @Test
  public void anOptimisticClaimTakesDueJobsInOrderButNoRunningOneAndNoneForALapsedLease() {
    NodeLease a = node("node-a");
    long low = store.create(NewJob.of("email", "low"));
    long high = store.create(NewJob.of("email", "high").withPriority(10));
    long later =
        store.create(NewJob.of("email", "later").withDueAt(clock.instant().plusSeconds(5)));
    long report = store.create(NewJob.of("report", "monthly"));

    JobStore.ClaimAttempt first = store.claimOptimistically(a, EMAILS, 1);
    assertThat(first.jobs()).extracting(ClaimedJob::id).containsExactly(high);
    assertThat(first.jobs().getFirst().payload().read()).isEqualTo("high");
    assertThat(first.jobs().getFirst().attempt()).isEqualTo(1);
    assertThat(first.lockFailures()).isZero();
    assertThat(state(high)).isEqualTo(new JobState.Running(a));

    JobStore.ClaimAttempt second = store.claimOptimistically(a, EMAILS, 10);
    assertThat(second.jobs())
        .as("not the running one, nor the one not due, nor a report")
        .extracting(ClaimedJob::id)
        .containsExactly(low);
    assertThat(state(later)).isInstanceOf(JobState.Waiting.class);
    assertThat(state(report)).isInstanceOf(JobState.Waiting.class);

    clock.advance(Duration.ofSeconds(5));
    lapse(a, low);
    JobStore.ClaimAttempt lapsed = store.claimOptimistically(a, EMAILS, 10);
    assertThat(lapsed.jobs()).as("a lapsed lease claims nothing").isEmpty();
    assertThat(state(later)).isInstanceOf(JobState.Waiting.class);
    NodeLease b = node("node-b");
    assertThat(store.claimOptimistically(b, EMAILS, 10).jobs())
        .as("the lapsed lease's jobs were reclaimed")
        .extracting(ClaimedJob::id)
        .containsExactly(high, low, later);
  }

  @Test
  public void waitingJobsAreCountedPerTypeAndTheNextDueTimeIsKnown() {
    Instant now = clock.instant();
    store.create(NewJob.of("email", 1));
    store.create(NewJob.of("email", 2).withDueAt(now.plusSeconds(40)));
    store.create(NewJob.of("email", 3).withDueAt(now.plusSeconds(20)).withPriority(5));
    store.create(NewJob.of("report", 4).withDueAt(now.plusSeconds(10)));

    assertThat(store.waitingByType())
        .containsExactlyInAnyOrderEntriesOf(Map.of("email", 3L, "report", 1L));
    assertThat(store.nextDue(EMAILS, now.plusSeconds(60))).contains(now.plusSeconds(20));
    assertThat(store.nextDue(EMAILS, now.plusSeconds(15))).isEmpty();
    assertThat(store.nextDue(Set.of("email", "report"), now.plusSeconds(60)))
        .contains(now.plusSeconds(10));
  }

  @Test
  public void jobsAreListedByStateAndTypeInIdOrderAPageAtATime() {
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    long running = store.create(NewJob.of("email", "running"));
    claimOne(a);
    long incident = store.create(NewJob.of("email", "bad").withMaxRetries(0));
    claimOne(a);
    store.fail(a, incident, "boom", now);
    long later = store.create(NewJob.of("email", "later").withDueAt(now.plusSeconds(60)));
    long report = store.create(NewJob.of("report", "monthly").withPriority(7));

    assertThat(store.list(JobQuery.first(10)))
        .as("every unfinished job, as find sees it")
        .containsExactly(
            store.find(running).orElseThrow(),
            store.find(incident).orElseThrow(),
            store.find(later).orElseThrow(),
            store.find(report).orElseThrow());
    assertThat(ids(JobQuery.first(10).withState(JobQuery.State.WAITING)))
        .containsExactly(later, report);
    assertThat(store.list(JobQuery.first(10).withState(JobQuery.State.RUNNING)))
        .singleElement()
        .satisfies(j -> assertThat(j.state()).isEqualTo(new JobState.Running(a)));
    assertThat(store.list(JobQuery.first(10).withState(JobQuery.State.INCIDENT)))
        .singleElement()
        .satisfies(j -> assertThat(j.state()).isEqualTo(new JobState.Incident("boom")));
    assertThat(ids(JobQuery.first(10).withType("report"))).containsExactly(report);
    assertThat(ids(JobQuery.first(10).withType("email").withState(JobQuery.State.WAITING)))
        .containsExactly(later);
    assertThat(ids(JobQuery.first(10).withType("invoice"))).isEmpty();

    assertThat(ids(JobQuery.first(2))).containsExactly(running, incident);
    assertThat(ids(JobQuery.first(2).after(incident))).containsExactly(later, report);
    assertThat(ids(JobQuery.first(2).after(report))).isEmpty();
  }

  private List<Long> ids(JobQuery query) {
    return store.list(query).stream().map(JobInfo::id).toList();
  }

  @Test
  public void statsCountEachTypesJobsByStateAndTellHowLongTheOldestDueJobWaited() {
    assertThat(store.stats()).as("no job").isEmpty();
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    store.create(NewJob.of("email", "running"));
    claimOne(a);
    long incident = store.create(NewJob.of("email", "bad").withMaxRetries(0));
    claimOne(a);
    store.fail(a, incident, "boom", now);
    store.create(NewJob.of("email", "overdue").withDueAt(now.minusSeconds(30)));
    store.create(NewJob.of("email", "due").withPriority(50));
    store.create(NewJob.of("email", "later").withDueAt(now.plusSeconds(60)));
    store.create(NewJob.of("report", "soon").withDueAt(now.plusSeconds(10)));

    assertThat(store.stats())
        .containsExactly(
            new JobTypeStats("email", 3, 2, 1, 1, now.minusSeconds(30)),
            new JobTypeStats("report", 1, 0, 0, 0, null));

    clock.advance(Duration.ofSeconds(60));
    assertThat(store.stats())
        .containsExactly(
            new JobTypeStats("email", 3, 3, 1, 1, now.minusSeconds(30)),
            new JobTypeStats("report", 1, 1, 0, 0, now.plusSeconds(10)));
  }

  @Test
  public void jobsAndIncidentsSurviveClosingAndOpeningTheStorage() throws Exception {
    NodeLease a = node("node-a");
    long incident = store.create(NewJob.of("email", "bad").withMaxRetries(0));
    claimOne(a);
    store.fail(a, incident, "boom", clock.instant());
    long waiting = store.create(NewJob.of("email", "kept"));

    closeAndReopen();
    store = newJobStore(storage);

    assertThat(state(incident)).isEqualTo(new JobState.Incident("boom"));
    assertThat(claimOne(node("node-b")).id()).isEqualTo(waiting);
  }

  @Test
  public void badArgumentsAreRefusedNamingTheRule() {
    assertThatThrownBy(() -> NewJob.of("e mail", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job type 'e mail' must be 1 to 200 letters");
    assertThatThrownBy(() -> NewJob.of("email", "x").withPriority(101))
        .hasMessage("priority must be from 0 to 100, was 101 (job type 'email')");
    assertThatThrownBy(() -> store.register("node-a", Duration.ZERO))
        .hasMessageContaining("lease must be at least 1 ms, was PT0S");
    assertThatThrownBy(() -> store.claim(node("node-a"), EMAILS, 0))
        .hasMessage("max must be at least 1, was 0");
    assertThatThrownBy(() -> JobQuery.first(0)).hasMessage("max must be at least 1, was 0");
    assertThatThrownBy(() -> JobQuery.first(5).withType("e mail"))
        .hasMessageContaining("job type 'e mail' must be 1 to 200 letters");
  }
}
