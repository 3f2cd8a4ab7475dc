package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.app.Jmx;
import io.sluice.core.flow.Flow;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.logging.LogContext;
import io.sluice.jobs.spi.FinishedJob;
import io.sluice.jobs.spi.HistoryQuery;
import io.sluice.jobs.spi.JobInfo;
import io.sluice.jobs.spi.JobState;
import io.sluice.jobs.spi.JobStore;
import io.sluice.jobs.spi.NewJob;
import io.sluice.jobs.spi.NodeLease;
import io.sluice.testkit.RemoteJmx;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * What an executor node does, on a real database with the real clock: extended once for SQLite and
 * once for PostgreSQL. Tests wait with Awaitility, never by sleeping.
 */
abstract class JobExecutorContract extends JobExecutorFixture {

  @Test
  void theFirstLiveNodePrunesTheHistoryOlderThanKeptAndKeepsTheRest() throws Exception {
    try (Connection connection = connect();
        PreparedStatement old =
            connection.prepareStatement(
                "INSERT INTO sluice_job_history (job_id, type, state, priority, attempts,"
                    + " created_at, finished_at) VALUES (?, 'email', 0, 0, 1, 0, ?)")) {
      long eightDaysAgo = clock.instant().minus(Duration.ofDays(8)).toEpochMilli();
      for (long id = 1; id <= 3; id++) {
        old.setLong(1, 1_000_000 + id);
        old.setLong(2, eightDaysAgo);
        old.executeUpdate();
      }
    }
    List<Long> ids = emails(5);

    start("node-a", Map.of("email", job -> {}), c -> c.heartbeatInterval(Duration.ofMillis(100)));

    await().atMost(PATIENCE).until(() -> count("sluice.jobs.history.pruned", "node-a") == 3);
    await().atMost(PATIENCE).until(() -> finished(ids));
    assertThat(store.history(HistoryQuery.newest(10)))
        .extracting(FinishedJob::jobId)
        .containsExactlyInAnyOrderElementsOf(ids);
  }

  @Test
  void aNodeOfAStoreKeepingNoHistoryWritesNoneAndPrunesWhatWasLeft() throws Exception {
    List<Long> before = emails(3);
    JobExecutor keeping = start("node-a", Map.of("email", job -> {}), c -> c);
    await().atMost(PATIENCE).until(() -> finished(before));
    keeping.close();
    assertThat(store.history(HistoryQuery.newest(10))).hasSize(3);
    JobStore withoutHistory = JobTestStorages.jobs(storage, Duration.ZERO);
    List<Long> after = emails(2);

    start(
        withoutHistory,
        "node-b",
        Map.of("email", job -> {}),
        c -> c.heartbeatInterval(Duration.ofMillis(100)));

    await().atMost(PATIENCE).until(() -> count("sluice.jobs.history.pruned", "node-b") == 3);
    await().atMost(PATIENCE).until(() -> finished(after));
    assertThat(store.history(HistoryQuery.newest(10))).isEmpty();
  }

  @Test
  void everyJobRunsOnceAndIsCompletedAndCounted() {
    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<Long> ids = emails(300);

    start(
        "node-a",
        Map.of(
            "email",
            job -> runs.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet()),
        c -> c.concurrency(8).prefetch(2));

    await().atMost(PATIENCE).until(() -> store.waitingByType().isEmpty() && runs.size() == 300);
    assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(runs.values()).allMatch(n -> n.get() == 1);
    await().atMost(PATIENCE).until(() -> finished(ids));
    assertThat(count("sluice.jobs.acquired", "node-a")).isEqualTo(300);
    assertThat(count("sluice.jobs.executed", "node-a")).isEqualTo(300);
    assertThat(count("sluice.jobs.acquisition.attempts", "node-a")).isBetween(1.0, 300.0);
    assertThat(count("sluice.jobs.rejected", "node-a")).isZero();
    assertThat(count("sluice.jobs.failed", "node-a")).isZero();
    assertThat(registry.get("sluice.jobs.start.latency").tag("node", "node-a").timer().count())
        .isEqualTo(300);
    assertThat(registry.get("sluice.jobs.wait").tag("type", "email").timer().count())
        .isEqualTo(300);
    assertThat(
            registry
                .get("sluice.jobs.run")
                .tag("type", "email")
                .tag("outcome", "completed")
                .timer()
                .count())
        .isEqualTo(300);
  }

  @Test
  void optimisticNodesWithBackoffRunEveryJobOnceAndCountTheirCollisions() throws Exception {
    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<Long> ids = emails(300);
    JobHandler handler =
        job -> runs.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
    UnaryOperator<JobExecutorConfig.Builder> optimistic =
        c ->
            c.acquisition(Acquisition.OPTIMISTIC)
                .concurrency(4)
                .jobsPerCycle(3)
                .maxJobsPerCycle(12)
                .acquisitionBackoff(Duration.ofMillis(5))
                .maxAcquisitionBackoff(Duration.ofMillis(20));
    List<String> nodes = List.of("node-a", "node-b", "node-c");
    for (String node : nodes) {
      start(
          node.equals("node-a") ? store : otherNode(), node, Map.of("email", handler), optimistic);
    }

    await().atMost(PATIENCE).until(() -> finished(ids));
    assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(runs.values()).as("each job ran once").allMatch(n -> n.get() == 1);
    double acquired = nodes.stream().mapToDouble(n -> count("sluice.jobs.acquired", n)).sum();
    double failures = nodes.stream().mapToDouble(n -> count("sluice.jobs.lock.failures", n)).sum();
    assertThat(acquired).isEqualTo(300);
    double cycles =
        nodes.stream().mapToDouble(n -> count("sluice.jobs.acquisition.attempts", n)).sum();
    assertThat(acquired + failures)
        .as("candidates: claimed or lost to another node, at most 12 a cycle")
        .isLessThanOrEqualTo(cycles * 12);
  }

  @Test
  void aHandlerCompletesItsJobInItsOwnTransactionWithItsWork() throws Exception {
    try (Connection connection = connect()) {
      connection.createStatement().execute("CREATE TABLE sent (job_id BIGINT PRIMARY KEY)");
    }
    List<Long> ids = emails(20);
    start(
        "node-a",
        Map.of(
            "email",
            job -> {
              try (Connection work = connect()) {
                work.setAutoCommit(false);
                try (PreparedStatement sent =
                    work.prepareStatement("INSERT INTO sent (job_id) VALUES (?)")) {
                  sent.setLong(1, job.id());
                  sent.executeUpdate();
                }
                job.completeIn(work);
                work.commit();
              }
            }),
        c -> c.concurrency(4));

    await().atMost(PATIENCE).until(() -> finished(ids));
    try (Connection connection = connect();
        var rs = connection.createStatement().executeQuery("SELECT COUNT(*) FROM sent")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(20);
    }
    // The job is gone once the handler's transaction commits, a moment before the handler returns.
    await().atMost(PATIENCE).until(() -> count("sluice.jobs.executed", "node-a") == 20);
    assertThat(count("sluice.jobs.fenced", "node-a"))
        .as("completed in the handlers' transactions: no bulk completion refused")
        .isZero();
    assertThat(warnings("could not complete")).isEmpty();
  }

  @Test
  void jobsThatFinishTogetherAreCompletedInOneWrite() {
    Gate gate = new Gate();
    List<Long> ids = emails(20);
    start("node-a", Map.of("email", gate.handler()), c -> c.concurrency(20).prefetch(0));
    await().atMost(PATIENCE).until(() -> gate.entered.get() == 20);

    gate.open.countDown();

    await().atMost(PATIENCE).until(() -> finished(ids));
    var together = registry.get("sluice.jobs.completed.together").tag("node", "node-a").summary();
    assertThat(together.totalAmount()).isEqualTo(20);
    assertThat(together.count()).as("writes that completed the 20 jobs").isLessThan(20);
  }

  @Test
  void aNodeHoldsNoMoreThanItsConcurrencyPlusPrefetchAndRunsJobsOffTheAcquisitionThread()
      throws Exception {
    Gate gate = new Gate();
    List<Long> ids = emails(20);

    start("node-a", Map.of("email", gate.handler()), c -> c.concurrency(3).prefetch(2));

    await().atMost(PATIENCE).until(() -> gate.entered.get() == 3 && held(ids) == 5);
    assertThat(gate.entered.get()).isEqualTo(3);
    assertThat(held(ids)).isEqualTo(5);
    gate.open.countDown();
    await().atMost(PATIENCE).until(() -> store.waitingByType().isEmpty() && held(ids) == 0);
    assertThat(gate.entered.get()).isEqualTo(20);
    assertThat(gate.threads).allMatch(Thread::isVirtual);
    assertThat(count("sluice.jobs.rejected", "node-a")).isZero();
  }

  @Test
  void aFailingJobIsRetriedWithGrowingBackoffThenBecomesAnIncidentThatCanBeRetried()
      throws Exception {
    AtomicBoolean fixed = new AtomicBoolean();
    List<Instant> attempts = new CopyOnWriteArrayList<>();
    long id = store.create(NewJob.of("email", "to bob").withMaxRetries(2));

    JobExecutor node =
        start(
            "node-a",
            Map.of(
                "email",
                job -> {
                  attempts.add(clock.instant());
                  if (!fixed.get()) {
                    throw new IllegalStateException("mail server down");
                  }
                }),
            c ->
                c.retryBackoff(Duration.ofMillis(200))
                    .backoffFactor(2)
                    .safetyPoll(Duration.ofMinutes(10)));

    await().atMost(PATIENCE).until(() -> state(id) instanceof JobState.Incident);
    assertThat(state(id))
        .isEqualTo(new JobState.Incident("java.lang.IllegalStateException: mail server down"));
    assertThat(attempts).hasSize(3);
    assertThat(Duration.between(attempts.get(0), attempts.get(1)))
        .isGreaterThanOrEqualTo(Duration.ofMillis(200));
    assertThat(Duration.between(attempts.get(1), attempts.get(2)))
        .isGreaterThanOrEqualTo(Duration.ofMillis(400));
    assertThat(count("sluice.jobs.failed", "node-a")).isEqualTo(3);
    assertThat(count("sluice.jobs.incidents", "node-a")).isEqualTo(1);
    assertThat(warnings("is an incident after 3 attempt(s)")).hasSize(1);

    fixed.set(true);
    // An operator retries it over a real JMX connection (RMI on TCP), as from JConsole.
    try (AutoCloseable bean = JobNodeJmx.register(node);
        RemoteJmx jmx = RemoteJmx.connect()) {
      JobNodeJmx.JobNodeMXBean remote =
          jmx.proxy(Jmx.name("JobNode", "node-a"), JobNodeJmx.JobNodeMXBean.class);
      assertThat(remote.isHoldingLease()).isTrue();
      assertThat(remote.retryIncident(id, 1))
          .isEqualTo("job " + id + " (email) waits again, due now, with 1 retries");
      await().atMost(PATIENCE).until(() -> store.find(id).isEmpty());
      assertThat(remote.retryIncident(id, 1))
          .as("completed meanwhile: said, and nothing done")
          .startsWith("no unfinished job has id " + id);
    }
    assertThat(count("sluice.jobs.executed", "node-a")).isEqualTo(1);
  }

  @Test
  void aJobOfATypeWithNoHandlerWaitsUnfailedWithOneWarningNamingTheType() throws Exception {
    long fax = store.create(NewJob.of("fax", "page 1"));
    List<Object> sent = new CopyOnWriteArrayList<>();
    start(
        "node-a",
        Map.of("email", job -> sent.add(job.payload())),
        c -> c.heartbeatInterval(Duration.ofMillis(50)).depthInterval(Duration.ofMillis(50)));
    store.create(NewJob.of("email", "hello"));

    await().atMost(PATIENCE).until(() -> sent.size() == 1 && !warnings("'fax'").isEmpty());
    store.create(NewJob.of("fax", "page 2"));
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                registry.find("sluice.jobs.waiting").tags("node", "node-a", "type", "fax").gauge()
                        != null
                    && registry
                            .get("sluice.jobs.waiting")
                            .tags("node", "node-a", "type", "fax")
                            .gauge()
                            .value()
                        == 2);

    assertThat(warnings("'fax'"))
        .singleElement()
        .asString()
        .contains("job(s) of type 'fax' wait: node node-a has no handler for 'fax'")
        .contains("They are not failed");
    JobInfo waiting = store.find(fax).orElseThrow();
    assertThat(waiting.state()).isInstanceOf(JobState.Waiting.class);
    assertThat(waiting.attempts()).isZero();

    List<Object> faxed = new CopyOnWriteArrayList<>();
    start("node-b", Map.of("fax", job -> faxed.add(job.payload())), c -> c);
    await().atMost(PATIENCE).until(() -> faxed.size() == 2);
  }

  @Test
  void aJobDueSoonRunsOnTheNodesTimerWithoutWaitingForTheSafetyPoll() {
    List<Instant> started = new CopyOnWriteArrayList<>();
    start(
        "node-a",
        Map.of("email", job -> started.add(clock.instant())),
        c -> c.safetyPoll(Duration.ofMinutes(10)));
    Instant due = clock.instant().plusMillis(700);

    store.create(NewJob.of("email", "later").withDueAt(due));

    await().atMost(PATIENCE).until(() -> started.size() == 1);
    assertThat(started.getFirst()).isAfterOrEqualTo(due);
  }

  @Test
  void aJobCreatedOnAnotherNodeWakesAnIdleNodeAtOnce() throws Exception {
    List<Object> sent = new CopyOnWriteArrayList<>();
    start(
        "node-a",
        Map.of("email", job -> sent.add(job.payload())),
        c -> c.safetyPoll(Duration.ofMinutes(10)));
    JobStore other = otherNode();
    await().atMost(PATIENCE).until(() -> count("sluice.jobs.acquisition.attempts", "node-a") >= 1);

    other.create(NewJob.of("email", "from elsewhere"));

    await().atMost(PATIENCE).until(() -> sent.equals(List.of("from elsewhere")));
  }

  @Test
  void onAnIdleClusterTheFirstLiveNodeByNameClaimsNewJobsBeforeTheOthersLook() {
    List<String> ranOn = new CopyOnWriteArrayList<>();
    // Started second, but first by name: its rank is 0 and node-b (rank 1) claims 2 ms later.
    start(
        "node-b",
        Map.of("email", job -> ranOn.add("b")),
        c -> c.heartbeatInterval(Duration.ofMillis(50)));
    start(
        "node-a",
        Map.of("email", job -> ranOn.add("a")),
        c -> c.heartbeatInterval(Duration.ofMillis(50)));

    for (int i = 0; i < 60; i++) {
      int before = ranOn.size();
      store.create(NewJob.of("email", i));
      await().atMost(PATIENCE).until(() -> ranOn.size() == before + 1);
    }

    // Without the stagger both idle nodes claim each job at once and either wins, about half each.
    List<String> last = ranOn.subList(40, 60);
    assertThat(last.stream().filter("a"::equals).count())
        .as("of %s", last)
        .isGreaterThanOrEqualTo(15);
  }

  @Test
  void theJobsOfANodeWhoseLeaseLapsedAreReclaimedAndRunByAnotherWithinTenSeconds() {
    Duration lease = JobExecutorConfig.defaults().leaseDuration();
    NodeLease dead = store.register("dead-node", lease);
    List<Long> ids = emails(5);
    assertThat(store.claim(dead, Set.of("email"), 10)).hasSize(5);
    Set<Long> ran = ConcurrentHashMap.newKeySet();
    Instant lapsed = clock.instant();

    start("node-b", Map.of("email", job -> ran.add(job.id())), c -> c);

    await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 5);
    assertThat(Duration.between(lapsed, clock.instant())).isLessThan(Duration.ofSeconds(10));
    await().atMost(PATIENCE).until(() -> finished(ids));
    assertThat(store.complete(dead, ids)).as("the dead node's late completions").isEmpty();
  }

  @Test
  void aNodeWhoseLeaseWasTakenOverHasItsCompletionRefusedAndRegistersAgain() throws Exception {
    CountDownLatch wake = new CountDownLatch(1);
    AtomicBoolean first = new AtomicBoolean(true);
    List<String> ranOn = new CopyOnWriteArrayList<>();
    long id = store.create(NewJob.of("email", "once"));
    JobHandler handler =
        job -> {
          ranOn.add(job.node());
          if (first.getAndSet(false)) {
            wake.await();
          }
        };
    UnaryOperator<JobExecutorConfig.Builder> quick =
        c -> c.heartbeatInterval(Duration.ofMillis(100)).leaseDuration(Duration.ofSeconds(1));
    JobExecutor a = start("node-a", Map.of("email", handler), quick);
    await().atMost(PATIENCE).until(() -> ranOn.equals(List.of("node-a")));
    NodeLease before = a.lease();

    // node-a's first run is paused while its lease lapses behind its back: the job is reclaimed
    // and run again, by node-a under a new epoch or by node-b, whichever claims it first.
    start("node-b", Map.of("email", handler), quick);
    try (Connection connection = connect()) {
      connection
          .createStatement()
          .execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = 'node-a'");
    }
    await().atMost(PATIENCE).until(() -> ranOn.size() == 2 && store.find(id).isEmpty());

    wake.countDown();
    await().atMost(PATIENCE).until(() -> count("sluice.jobs.fenced", "node-a") == 1);
    await().atMost(PATIENCE).until(() -> a.lease().epoch() > before.epoch() && a.holdsLease());
    assertThat(warnings("Node node-a could not complete 1 job(s)")).hasSize(1);
    assertThat(warnings("Node node-a lost its lease")).hasSize(1);
    assertThat(count("sluice.jobs.executed", "node-a") + count("sluice.jobs.executed", "node-b"))
        .as("the paused run returned too, but only one completion counted in the database")
        .isEqualTo(2);
  }

  @Test
  void aNodeThatCannotRenewItsLeaseStopsTakingJobsAndResumesWhenTheDatabaseReturns()
      throws Exception {
    List<Instant> ran = new CopyOnWriteArrayList<>();
    JobExecutor a =
        start(
            "node-a",
            Map.of("email", job -> ran.add(clock.instant())),
            c ->
                c.leaseDuration(Duration.ofSeconds(1))
                    .heartbeatInterval(Duration.ofMillis(200))
                    .safetyPoll(Duration.ofMillis(200)));
    long epoch = a.lease().epoch();
    store.create(NewJob.of("email", "before the outage"));
    await().atMost(PATIENCE).until(() -> ran.size() == 1);
    assertThat(a.health())
        .singleElement()
        .matches(HealthCheck::up, "ready while it holds its lease");

    Instant back;
    try (AutoCloseable outage = blockWrites()) {
      await().atMost(PATIENCE).until(() -> !a.holdsLease());
      back = clock.instant();
      assertThat(a.health())
          .singleElement()
          .satisfies(
              check -> {
                assertThat(check.up()).isFalse();
                assertThat(check.component()).isEqualTo("job node node-a");
                assertThat(check.detail()).contains("lost its lease");
              });
    }

    await().atMost(PATIENCE).until(a::holdsLease);
    assertThat(a.health()).singleElement().matches(HealthCheck::up, "ready again");
    store.create(NewJob.of("email", "after the outage"));
    await().atMost(PATIENCE).until(() -> ran.size() == 2);
    assertThat(ran.get(1)).isAfter(back);
    // The node stops a tenth of the lease before the database would: a renewal that waited for the
    // lock may still extend the same epoch; otherwise the node registered again, and said so.
    assertThat(warnings("Node node-a lost its lease")).hasSize(a.lease().epoch() > epoch ? 1 : 0);
  }

  @Test
  void aFlowCanBeTheHandlerOfAJobType() {
    List<Object> seen = new CopyOnWriteArrayList<>();
    Application app =
        closeAfter(
            Application.builder()
                .flow(
                    Flow.builder("send-email")
                        .processor(
                            m -> {
                              // The job comes with the message, to ask whether it is still held.
                              JobContext job = (JobContext) m.attribute(JobHandler.JOB_ATTRIBUTE);
                              seen.add(
                                  m.payload()
                                      + ", job "
                                      + job.id()
                                      + " held "
                                      + job.holdsJob()
                                      + ", logged as job "
                                      + LogContext.entries().get(LogContext.JOB_ID));
                              return m;
                            })
                        .build())
                .build());
    app.start();

    start("node-a", Map.of("email", JobHandler.flow(app, "send-email")), c -> c);
    long id = store.create(NewJob.of("email", "via a flow"));

    await().atMost(PATIENCE).until(() -> store.find(id).isEmpty());
    assertThat(seen).containsExactly("via a flow, job " + id + " held true, logged as job " + id);
  }

  @Test
  void whatAHandlerLogsNamesItsJob() {
    List<String> seen = new CopyOnWriteArrayList<>();
    start(
        "node-a",
        Map.of(
            "email",
            job ->
                seen.add(job.id() + " logged as " + LogContext.entries().get(LogContext.JOB_ID))),
        c -> c);
    long id = store.create(NewJob.of("email", "x"));

    await().atMost(PATIENCE).until(() -> store.find(id).isEmpty());
    assertThat(seen).containsExactly(id + " logged as " + id);
  }

  @Test
  void stoppingHandsBackTheJobsANodeHeldButDidNotFinish() {
    Gate never = new Gate();
    List<Long> ids = emails(3);
    JobExecutor a =
        start(
            "node-a",
            Map.of("email", never.handler()),
            c -> c.concurrency(1).prefetch(2).shutdownTimeout(Duration.ofMillis(200)));
    await().atMost(PATIENCE).until(() -> never.entered.get() == 1 && held(ids) == 3);

    a.close();

    assertThat(ids).allMatch(id -> state(id) instanceof JobState.Waiting);
    assertThat(ids).allMatch(id -> store.find(id).orElseThrow().attempts() == 0);
    assertThat(never.entered.get()).isEqualTo(1);
  }
}
