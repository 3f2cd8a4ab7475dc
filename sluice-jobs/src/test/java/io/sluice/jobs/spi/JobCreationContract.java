package io.sluice.jobs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.store.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The job store's contract on creating jobs: unique keys create one job; a list is created in one
 * commit, in order, or not at all; a job created in the caller's transaction exists only if it
 * commits.
 */
public abstract class JobCreationContract extends JobStoreContract {

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
}
