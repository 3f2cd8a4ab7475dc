package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import org.junit.jupiter.api.Test;

/**
 * The job store's contract on claiming: jobs wait until due and are claimed in aged-priority order,
 * at most {@code max} of the handled types; competing nodes never claim one job twice, with the
 * skip-locked claim or the optimistic one.
 */
public abstract class JobClaimContract extends JobStoreContract {

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
}
