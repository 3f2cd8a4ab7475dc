package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.SluiceException;
import io.sluice.jobs.spi.ClaimedJob;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Exclusive keys: jobs with one key never run at the same time, anywhere, and run in due order; a
 * node claims a key's due jobs together and runs them one after another. Extended for SQLite and
 * PostgreSQL.
 */
abstract class ExclusiveJobsContract extends JobExecutorFixture {

  private static final Set<String> ORDER = Set.of("order");
  private static final Set<String> ORDER_AND_NOTE = Set.of("order", "note");

  private NodeLease lease;
  private Instant now;

  @BeforeEach
  void register() {
    lease = store.register("node-a", Duration.ofMinutes(1));
    now = clock.instant();
  }

  private NewJob keyed(String key, String name, int secondsAgo) {
    return NewJob.of("order", name).withExclusiveKey(key).withDueAt(now.minusSeconds(secondsAgo));
  }

  private static List<Object> payloads(List<ClaimedJob> jobs) {
    return jobs.stream().map(j -> j.payload().read()).toList();
  }

  private static List<Object> ofKey(List<ClaimedJob> jobs, String key) {
    return payloads(jobs.stream().filter(j -> key.equals(j.exclusiveKey())).toList());
  }

  @Test
  void aClaimTakesTheDueJobsOfAKeyTogetherAndNoneMoreWhileOneIsHeld() {
    store.createAll(
        List.of(
            keyed("A", "a2", 2),
            keyed("A", "a1", 3),
            keyed("B", "b1", 5),
            NewJob.of("note", "free"),
            keyed("A", "later", -3600)));

    List<ClaimedJob> first = store.claim(lease, ORDER_AND_NOTE, 10);

    assertThat(payloads(first)).containsExactlyInAnyOrder("a1", "a2", "b1", "free");
    assertThat(first).filteredOn(j -> "A".equals(j.exclusiveKey())).hasSize(2);
    store.create(keyed("A", "a3", 1));
    assertThat(store.claim(lease, ORDER, 10)).as("A is held: nothing of it").isEmpty();

    JobStore.ClaimResult next =
        store.claim(
            lease,
            ORDER,
            10,
            first.stream().filter(j -> "A".equals(j.exclusiveKey())).map(ClaimedJob::id).toList());

    assertThat(next.completed()).hasSize(2);
    assertThat(payloads(next.claimed()))
        .as("completing A's jobs frees A in the same claim")
        .containsExactly("a3");
  }

  @Test
  void aKeyTakesOneSlotOfTheClaimWhateverItsNumberOfJobs() {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      jobs.add(keyed("A", "a" + i, 10 - i));
    }
    jobs.add(NewJob.of("order", "free-1").withDueAt(now.minusSeconds(1)));
    jobs.add(NewJob.of("order", "free-2"));
    store.createAll(jobs);

    List<ClaimedJob> claimed = store.claim(lease, ORDER, 2);

    assertThat(ofKey(claimed, "A")).containsExactlyInAnyOrder("a0", "a1", "a2", "a3", "a4");
    assertThat(claimed).filteredOn(j -> j.exclusiveKey() == null).hasSize(1);
  }

  @Test
  void anotherNodeClaimsNoJobOfAKeyThisNodeHolds() {
    store.createAll(List.of(keyed("A", "a1", 3), keyed("B", "b1", 2)));
    JobStore other = otherNode();
    NodeLease otherLease = other.register("node-b", Duration.ofMinutes(1));

    assertThat(payloads(store.claim(lease, ORDER, 1))).containsExactly("a1");
    store.create(keyed("A", "a0", 30)); // due before a1, created while a1 is held

    assertThat(payloads(other.claim(otherLease, ORDER, 10))).containsExactly("b1");
    assertThat(other.claimOptimistically(otherLease, ORDER, 10).jobs()).isEmpty();
  }

  @Test
  void aKeyWhoseJobsWereHeldByALapsedLeaseIsClaimedAgainInDueOrder() {
    NodeLease shortLease = store.register("node-short", Duration.ofSeconds(2));
    store.createAll(List.of(keyed("A", "a1", 3), keyed("A", "a2", 2)));
    assertThat(store.claim(shortLease, ORDER, 10)).hasSize(2);

    await().atMost(PATIENCE).until(() -> !store.reclaim().isEmpty());

    assertThat(payloads(store.claim(lease, ORDER, 10))).containsExactly("a1", "a2");
  }

  @Test
  void aKeyedJobIsRefusedWhileJobsOfItsTypeRunWithoutAKey() {
    store.create(NewJob.of("order", "unkeyed"));
    assertThat(store.claim(lease, ORDER, 1)).hasSize(1);

    assertThatThrownBy(() -> store.createAll(List.of(NewJob.of("order", "x"), keyed("A", "a", 0))))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining(
            "exclusiveKey 'A' on a job of type 'order': 1 job(s) of that type are running without"
                + " an exclusive key")
        .hasMessageContaining("nothing was created");
    assertThat(store.waitingByType()).as("nothing created").isEmpty();
  }

  @Test
  void aBlankOrOverlongExclusiveKeyIsRefusedNamingIt() {
    assertThatThrownBy(() -> NewJob.of("order", "x").withExclusiveKey(" "))
        .hasMessageContaining("exclusiveKey");
    assertThatThrownBy(() -> NewJob.of("order", "x").withExclusiveKey("k".repeat(1001)))
        .hasMessage("exclusiveKey must be at most 1000 characters, was 1001 (job type 'order')");
  }

  /**
   * Nodes claim and complete as fast as they can while jobs of a few keys keep coming, some due
   * before the jobs held already: at no moment do two nodes hold jobs of one key.
   */
  @Test
  void nodesClaimingAtOnceNeverHoldOneKeyTogether() throws Exception {
    int nodes = 4;
    int jobs = 1_000;
    List<JobStore> stores = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      stores.add(i == 0 ? store : otherNode());
    }
    Map<String, Integer> holder = new ConcurrentHashMap<>();
    List<String> violations = new CopyOnWriteArrayList<>();
    AtomicInteger done = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(nodes + 1);
    try {
      Future<?> creating =
          threads.submit(
              () -> {
                // A few jobs a commit, some due before jobs of their key held already.
                for (int i = 0; i < jobs; i += 4) {
                  List<NewJob> few = new ArrayList<>();
                  for (int j = i; j < i + 4; j++) {
                    few.add(keyed("K" + (j % 5), "j" + j, j % 7));
                  }
                  store.createAll(few);
                }
              });
      List<Future<?>> claiming = new ArrayList<>();
      for (int n = 0; n < nodes; n++) {
        int node = n;
        JobStore on = stores.get(n);
        NodeLease mine = on.register("racer-" + n, Duration.ofMinutes(1));
        claiming.add(
            threads.submit(
                () -> {
                  List<ClaimedJob> held = List.of();
                  while (done.get() < jobs && violations.isEmpty()) {
                    long seen = on.changes();
                    // Let go of the keys before the claim completes their jobs, so that a node
                    // claiming them once that commits finds them free.
                    held.forEach(job -> holder.remove(job.exclusiveKey(), node));
                    held =
                        on.claim(mine, ORDER, 3, held.stream().map(ClaimedJob::id).toList())
                            .claimed();
                    for (ClaimedJob job : held) {
                      Integer other = holder.putIfAbsent(job.exclusiveKey(), node);
                      if (other != null && other != node) {
                        violations.add(job.exclusiveKey() + " held by " + other + " and " + node);
                      }
                    }
                    done.addAndGet(held.size());
                    if (held.isEmpty()) {
                      on.awaitChange(seen, Duration.ofMillis(20)); // nothing free: until a change
                    }
                  }
                  held.forEach(job -> holder.remove(job.exclusiveKey(), node));
                  on.complete(mine, held.stream().map(ClaimedJob::id).toList());
                  return null; // a Callable: the wait for a change may be interrupted
                }));
      }
      creating.get();
      for (Future<?> node : claiming) {
        node.get();
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(violations).isEmpty();
    assertThat(done.get()).isEqualTo(jobs);
  }

  /** An executor runs the jobs of one key one after another, in due order; other keys meanwhile. */
  @Test
  void anExecutorRunsAKeysJobsOneAtATimeInDueOrderAndOtherKeysInParallel() throws Exception {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      jobs.add(keyed("K" + (i % 4), String.format("%02d", i), 100 - i));
    }
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicInteger runningNow = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    Map<String, AtomicInteger> perKey = new ConcurrentHashMap<>();
    store.createAll(jobs);

    start(
        "node-x",
        Map.of(
            "order",
            job -> {
              String name = (String) job.payload();
              String key = "K" + (Integer.parseInt(name) % 4);
              int atOnce = runningNow.incrementAndGet();
              mostAtOnce.accumulateAndGet(atOnce, Math::max);
              if (perKey.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() != 1) {
                events.add("overlap " + key);
              }
              events.add(key + " " + name);
              Thread.sleep(20); // the job's work, so that jobs of other keys overlap it
              perKey.get(key).decrementAndGet();
              runningNow.decrementAndGet();
            }),
        c -> c.concurrency(8));

    await().atMost(PATIENCE).until(() -> store.waitingByType().isEmpty() && events.size() == 40);
    assertThat(events).noneMatch(e -> e.startsWith("overlap"));
    for (int k = 0; k < 4; k++) {
      String key = "K" + k;
      List<String> order =
          events.stream().filter(e -> e.startsWith(key + " ")).map(e -> e.substring(3)).toList();
      assertThat(order).as("the jobs of %s in due order", key).isSorted();
    }
    assertThat(mostAtOnce.get()).as("jobs of different keys at once").isGreaterThan(1);
  }
}
