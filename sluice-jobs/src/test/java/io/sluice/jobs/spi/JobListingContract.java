package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The job store's contract on looking at jobs: they are listed by state, type and id page, counted
 * per type, survive closing and opening the storage, and bad arguments are refused naming the rule.
 */
public abstract class JobListingContract extends JobStoreContract {

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
  public void waitingJobsAreCountedPerPriorityRunningOnesPerNodeAndNodesShowTheirLease() {
    NodeLease a = node("node-a");
    NodeLease b = node("node-b");
    store.create(NewJob.of("email", "a1"));
    store.create(NewJob.of("email", "a2"));
    assertThat(store.claim(a, EMAILS, 10)).hasSize(2);
    store.create(NewJob.of("email", "b1"));
    claimOne(b);
    store.create(NewJob.of("email", 1).withPriority(5));
    store.create(NewJob.of("email", 2).withPriority(5));
    store.create(NewJob.of("email", 3).withDueAt(clock.instant().plusSeconds(60)));
    store.create(NewJob.of("report", 4));

    assertThat(store.waitingByPriority())
        .containsExactly(
            new WaitingJobs("email", 5, 2),
            new WaitingJobs("email", 0, 1),
            new WaitingJobs("report", 0, 1));
    assertThat(store.runningByNode())
        .containsExactly(Map.entry("node-a", 2L), Map.entry("node-b", 1L));
    assertThat(store.nodes()).extracting(NodeInfo::node).containsExactly("node-a", "node-b");
    assertThat(store.nodes())
        .allSatisfy(
            n -> {
              assertThat(n.live()).isTrue();
              assertThat(n.leaseLeft()).isPositive().isLessThanOrEqualTo(LEASE);
            });
    assertThat(store.nodes().getFirst().epoch()).isEqualTo(a.epoch());

    assertThat(store.renew(b, Duration.ofMillis(1))).isTrue();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> !store.nodes().get(1).live());
    assertThat(store.nodes().get(0).live()).as("a's lease runs on").isTrue();
  }

  @Test
  public void jobsAndIncidentsSurviveClosingAndOpeningTheStorage() throws Exception {
    NodeLease a = node("node-a");
    long incident = store.create(NewJob.of("email", "bad").withMaxRetries(0));
    claimOne(a);
    store.fail(a, incident, "boom", clock.instant());
    long waiting = store.create(NewJob.of("email", "kept"));

    closeAndReopen();
    store = implementation().newJobStore(storage);

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
