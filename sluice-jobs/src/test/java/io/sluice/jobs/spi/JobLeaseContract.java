package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job store's contract on leases: completions (in the caller's transaction too), failures and
 * releases are fenced by the node's lease and epoch; a lapsed lease's jobs are reclaimed; failures
 * retry until they become incidents, which can be retried; a node that deregisters hands back what
 * it held.
 */
public abstract class JobLeaseContract extends JobStoreContract {

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
}
