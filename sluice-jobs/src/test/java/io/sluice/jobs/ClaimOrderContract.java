package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The order in which due jobs are claimed, by both strategies: aged priority (the default) or due
 * time alone ({@link ClaimOrder#DUE_DATE}). Extended for SQLite and PostgreSQL.
 */
abstract class ClaimOrderContract extends JobExecutorFixture {

  private static final Set<String> EMAIL = Set.of("email");

  private JobStore byDueDate;
  private NodeLease lease;
  private Instant now;

  @BeforeEach
  void openByDueDate() {
    byDueDate = JobStores.open(storage, JobTestStorages.VALUES, ClaimOrder.DUE_DATE);
    lease = store.register("node-a", Duration.ofMinutes(1));
    now = clock.instant();
  }

  /**
   * Four due jobs written by {@code on}: by due time d, a, c, b; by aged priority (1 s a level) d,
   * b, c, a.
   */
  private void fourJobs(JobStore on) {
    on.createAll(List.of(job("a", 0, 3), job("b", 100, 1), job("c", 50, 2), job("d", 100, 4)));
  }

  private NewJob job(String name, int priority, int secondsAgo) {
    return NewJob.of("email", name).withPriority(priority).withDueAt(now.minusSeconds(secondsAgo));
  }

  /** The payloads of the jobs claimed one claim of one at a time. */
  private static List<Object> claimOneByOne(JobStore on, NodeLease lease) {
    List<Object> order = new ArrayList<>();
    for (List<ClaimedJob> claimed = on.claim(lease, EMAIL, 1);
        !claimed.isEmpty();
        claimed = on.claim(lease, EMAIL, 1)) {
      order.add(claimed.getFirst().payload().read());
    }
    return order;
  }

  @Test
  void byDueDateJobsAreClaimedInDueOrderWhateverTheirPriority() {
    fourJobs(byDueDate);

    assertThat(claimOneByOne(byDueDate, lease)).containsExactly("d", "a", "c", "b");
  }

  @Test
  void byDueDateTheOptimisticCycleSelectsTheJobsDueFirst() {
    fourJobs(byDueDate);

    List<ClaimedJob> first = byDueDate.claimOptimistically(lease, EMAIL, 2).jobs();
    List<ClaimedJob> second = byDueDate.claimOptimistically(lease, EMAIL, 2).jobs();

    assertThat(first).extracting(j -> j.payload().read()).containsExactly("d", "a");
    assertThat(second).extracting(j -> j.payload().read()).containsExactly("c", "b");
  }

  @Test
  void byAgedPriorityTheSameJobsGoHighPriorityFirst() {
    fourJobs(store);

    assertThat(claimOneByOne(store, lease)).containsExactly("d", "b", "c", "a");
    fourJobs(store);
    assertThat(store.claimOptimistically(lease, EMAIL, 2).jobs())
        .extracting(j -> j.payload().read())
        .containsExactly("d", "b");
  }

  @Test
  void byDueDateAFailedJobWaitsForItsRetryTimeWhateverItsPriority() {
    long urgent = byDueDate.create(job("urgent", 100, 10));
    assertThat(byDueDate.claim(lease, EMAIL, 1)).extracting(ClaimedJob::id).containsExactly(urgent);
    byDueDate.fail(lease, urgent, "down", now.minusSeconds(1));
    byDueDate.create(job("routine", 0, 5));

    assertThat(claimOneByOne(byDueDate, lease)).containsExactly("routine", "urgent");
  }
}
