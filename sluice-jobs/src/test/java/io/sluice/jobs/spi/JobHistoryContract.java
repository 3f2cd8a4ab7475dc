package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The job store's contract on its history: every job that completes (by each way a node completes)
 * or becomes an incident leaves one entry, written in the commit that ends it; the entries are read
 * newest first, by type, state and text in payload or error, a page at a time; old entries are
 * pruned a bounded number at a time; every incident of a type is retried at once; a store keeping
 * no history writes none.
 */
public abstract class JobHistoryContract extends JobStoreContract {

  private List<FinishedJob> all() {
    return store.history(HistoryQuery.newest(HistoryQuery.MAX));
  }

  private List<Long> jobIds(HistoryQuery query) {
    return store.history(query).stream().map(FinishedJob::jobId).toList();
  }

  @Test
  public void aCompletedJobLeavesAnEntryWithWhatItWas() {
    NodeLease a = node("node-a");
    Instant created = clock.instant();
    long id =
        store.create(
            NewJob.of("email", "Invoice INV-42 for ACME")
                .withPriority(7)
                .withUniqueKey("inv-42")
                .withExclusiveKey("acme"));
    ClaimedJob job = store.claim(a, EMAILS, 10).getFirst();
    clock.advance(Duration.ofSeconds(3));

    assertThat(store.complete(a, List.of(job.id()))).containsExactly(id);

    assertThat(all())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.jobId()).isEqualTo(id);
              assertThat(entry.type()).isEqualTo("email");
              assertThat(entry.state()).isEqualTo(FinishedJob.State.COMPLETED);
              assertThat(entry.priority()).isEqualTo(7);
              assertThat(entry.uniqueKey()).isEqualTo("inv-42");
              assertThat(entry.exclusiveKey()).isEqualTo("acme");
              assertThat(entry.attempts()).isEqualTo(1);
              assertThat(entry.error()).isNull();
              assertThat(entry.node()).isEqualTo("node-a");
              assertThat(entry.createdAt()).isEqualTo(created);
              assertThat(entry.finishedAt()).isEqualTo(created.plusSeconds(3));
              assertThat(entry.payloadText()).isEqualTo("Invoice INV-42 for ACME");
            });
  }

  @Test
  public void binaryPayloadsWithZeroBytesAreCreatedAndFoundByTheirText() {
    NodeLease a = node("node-a");
    byte[] bytes = "head\u0000tail".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    long one = store.create(NewJob.of("email", bytes));
    long other = store.createAll(List.of(NewJob.of("email", bytes))).getFirst();
    assertThat(store.claim(a, EMAILS, 10)).hasSize(2);
    assertThat(store.complete(a, List.of(one, other))).containsExactlyInAnyOrder(one, other);

    assertThat(all())
        .extracting(FinishedJob::payloadText)
        .containsExactly("head\uFFFDtail", "head\uFFFDtail");
    assertThat(store.history(HistoryQuery.newest(10).withText("tail"))).hasSize(2);
  }

  @Test
  public void everyWayOfCompletingWritesTheEntryInItsCommit() throws Exception {
    NodeLease a = node("node-a");
    long byList = store.create(NewJob.of("email", "by list"));
    long carried = store.create(NewJob.of("email", "carried by a claim"));
    long inTransaction = store.create(NewJob.of("email", "in the caller's transaction"));
    long rolledBack = store.create(NewJob.of("email", "rolled back"));
    assertThat(store.claim(a, EMAILS, 10)).hasSize(4);

    store.complete(a, List.of(byList));
    assertThat(store.claim(a, EMAILS, 10, List.of(carried)).completed()).containsExactly(carried);
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      assertThat(store.complete(connection, a, inTransaction)).isTrue();
      connection.commit();
      assertThat(store.complete(connection, a, rolledBack)).isTrue();
      connection.rollback();
    }

    assertThat(jobIds(HistoryQuery.newest(10)))
        .as("newest first; the rolled back completion left no entry")
        .containsExactly(inTransaction, carried, byList);
    assertThat(all()).extracting(FinishedJob::payloadText).contains("carried by a claim");
    assertThat(store.find(rolledBack)).isPresent();
  }

  @Test
  public void aJobThatBecomesAnIncidentLeavesAFailedEntryAndAnotherOnceRetriedAndCompleted() {
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    long id = store.create(NewJob.of("email", Map.of("to", "ops@example.com")).withMaxRetries(1));
    claimOne(a);
    assertThat(store.fail(a, id, "timeout", now)).isEqualTo(JobStore.FailOutcome.RETRY);
    assertThat(all()).as("a failure that is retried ends nothing").isEmpty();
    claimOne(a);
    assertThat(store.fail(a, id, "SMTP 550 mailbox unavailable", now))
        .isEqualTo(JobStore.FailOutcome.INCIDENT);

    assertThat(all())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.state()).isEqualTo(FinishedJob.State.FAILED);
              assertThat(entry.error()).isEqualTo("SMTP 550 mailbox unavailable");
              assertThat(entry.attempts()).isEqualTo(2);
              assertThat(entry.node()).isEqualTo("node-a");
              assertThat(entry.payloadText()).isEqualTo("{to=ops@example.com}");
            });

    assertThat(store.retry(id, 0)).isTrue();
    claimOne(a);
    store.complete(a, List.of(id));

    assertThat(all())
        .extracting(FinishedJob::jobId, FinishedJob::state, FinishedJob::error)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                id, FinishedJob.State.COMPLETED, "SMTP 550 mailbox unavailable"),
            org.assertj.core.groups.Tuple.tuple(
                id, FinishedJob.State.FAILED, "SMTP 550 mailbox unavailable"));
  }

  @Test
  public void anUnreadablePayloadsIncidentLeavesAFailedEntry() {
    NodeLease a = node("node-a");
    long id = store.create(NewJob.of("email", "x"));
    claimOne(a);

    assertThat(store.incident(a, id, "cannot read the payload")).isTrue();

    assertThat(all())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.state()).isEqualTo(FinishedJob.State.FAILED);
              assertThat(entry.error()).isEqualTo("cannot read the payload");
            });
  }

  @Test
  public void theHistoryIsFilteredByTypeStateAndTextAndPagedNewestFirst() {
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    long invoice = store.create(NewJob.of("email", "Invoice 100% paid"));
    long receipt = store.create(NewJob.of("email", "receipt"));
    long report = store.create(NewJob.of("report", "monthly INVOICE totals"));
    long broken = store.create(NewJob.of("email", "newsletter").withMaxRetries(0));
    store.claim(a, Set.of("email", "report"), 10);
    store.complete(a, List.of(invoice, receipt, report));
    store.fail(a, broken, "Template 'Invoice' not found", now);

    assertThat(jobIds(HistoryQuery.newest(10).withType("email")))
        .containsExactlyInAnyOrder(invoice, receipt, broken);
    assertThat(jobIds(HistoryQuery.newest(10).withState(FinishedJob.State.FAILED)))
        .containsExactly(broken);
    assertThat(jobIds(HistoryQuery.newest(10).withText("invoice")))
        .as("in the payload or the error, case ignored")
        .containsExactlyInAnyOrder(invoice, report, broken);
    assertThat(
            jobIds(
                HistoryQuery.newest(10)
                    .withType("email")
                    .withState(FinishedJob.State.COMPLETED)
                    .withText("INVOICE")))
        .containsExactly(invoice);
    assertThat(jobIds(HistoryQuery.newest(10).withText("100%")))
        .as("a wildcard is a character like any other")
        .containsExactly(invoice);
    assertThat(jobIds(HistoryQuery.newest(10).withText("0%p"))).isEmpty();
    assertThat(jobIds(HistoryQuery.newest(10).withText("_"))).isEmpty();

    List<FinishedJob> newest = store.history(HistoryQuery.newest(2));
    List<FinishedJob> next = store.history(HistoryQuery.newest(2).before(newest.getLast().id()));
    assertThat(newest).hasSize(2);
    assertThat(next).hasSize(2);
    assertThat(newest.getFirst().id()).isGreaterThan(newest.getLast().id());
    assertThat(newest.getLast().id()).isGreaterThan(next.getFirst().id());
    assertThat(store.history(HistoryQuery.newest(2).before(next.getLast().id()))).isEmpty();
  }

  @Test
  public void pruningDeletesTheOldestEntriesEndedBeforeATimeAtMostMaxAStatement() {
    NodeLease a = node("node-a");
    for (int i = 0; i < 5; i++) {
      long id = store.create(NewJob.of("email", i));
      claimOne(a);
      store.complete(a, List.of(id));
      clock.advance(Duration.ofMinutes(1));
    }
    Instant cut = clock.instant().minus(Duration.ofMinutes(2)); // the first three ended before

    assertThat(store.prune(cut, 2)).isEqualTo(2);
    assertThat(all()).extracting(FinishedJob::payloadText).containsExactly("4", "3", "2");
    assertThat(store.prune(cut, 2)).isEqualTo(1);
    assertThat(store.prune(cut, 2)).isZero();
    assertThat(all()).extracting(FinishedJob::payloadText).containsExactly("4", "3");
  }

  @Test
  public void everyIncidentOfATypeIsRetriedAtOnce() {
    NodeLease a = node("node-a");
    Instant now = clock.instant();
    long first = store.create(NewJob.of("email", 1).withMaxRetries(0));
    long second = store.create(NewJob.of("email", 2).withMaxRetries(0));
    long other = store.create(NewJob.of("report", 3).withMaxRetries(0));
    long waiting = store.create(NewJob.of("email", 4).withDueAt(now.plusSeconds(60)));
    store.claim(a, Set.of("email", "report"), 10);
    for (long id : List.of(first, second, other)) {
      store.fail(a, id, "boom", now);
    }
    long seen = store.changes();

    assertThat(store.retryIncidents("email", 2)).isEqualTo(2);

    assertThat(state(first)).isEqualTo(new JobState.Waiting(now));
    assertThat(store.find(second).orElseThrow().retriesLeft()).isEqualTo(2);
    assertThat(state(other)).isInstanceOf(JobState.Incident.class);
    assertThat(state(waiting)).isEqualTo(new JobState.Waiting(now.plusSeconds(60)));
    assertThat(store.changes()).as("nodes are woken").isGreaterThan(seen);
    assertThat(store.retryIncidents("email", 2)).isZero();
    assertThatThrownBy(() -> store.retryIncidents("email", -1))
        .hasMessage("retries must not be negative, was -1");
  }

  @Test
  public void aStoreKeepingNoHistoryWritesNone() {
    JobStore none = implementation().newJobStore(storage, Duration.ZERO);
    NodeLease a = none.register("node-a", LEASE);
    long done = none.create(NewJob.of("email", "done"));
    long failed = none.create(NewJob.of("email", "failed").withMaxRetries(0));
    none.claim(a, EMAILS, 10);
    none.complete(a, List.of(done));
    none.fail(a, failed, "boom", clock.instant());

    assertThat(none.historyRetention()).isZero();
    assertThat(none.history(HistoryQuery.newest(10))).isEmpty();
    assertThat(store.historyRetention()).isEqualTo(Duration.ofDays(7));
  }

  @Test
  public void badHistoryQueriesAreRefusedNamingTheRule() {
    assertThatThrownBy(() -> HistoryQuery.newest(0)).hasMessage("max must be at least 1, was 0");
    assertThatThrownBy(() -> HistoryQuery.newest(1001))
        .hasMessage("max must be at most 1000, was 1001");
    assertThatThrownBy(() -> HistoryQuery.newest(10).before(-1))
        .hasMessage("beforeId must not be negative, was -1");
    assertThatThrownBy(() -> store.prune(clock.instant(), 0))
        .hasMessage("max must be at least 1, was 0");
  }
}
