package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A node that lost its lease starts nothing it claimed under it, and a handler still running asks
 * its context whether it holds its job: on SQLite and on PostgreSQL, the lease taken away in the
 * database behind the node's back.
 */
abstract class LostLeaseContract extends JobExecutorFixture {

  private static final UnaryOperator<JobExecutorConfig.Builder> QUICK =
      c ->
          c.concurrency(1)
              .prefetch(3)
              .heartbeatInterval(Duration.ofMillis(100))
              .leaseDuration(Duration.ofSeconds(1));

  /** A start of a job's handler: the job, and whether the node held it then. */
  private record Start(long id, boolean held) {}

  private void expireLease(String node) throws Exception {
    try (Connection connection = connect()) {
      connection
          .createStatement()
          .execute("UPDATE sluice_job_node SET lease_expires = 0 WHERE node = '" + node + "'");
    }
  }

  @Test
  void aNodeThatLostItsLeaseStartsNoneOfTheJobsItHadClaimedAndTellsTheRunningHandler()
      throws Exception {
    List<Start> starts = new CopyOnWriteArrayList<>();
    List<Boolean> heldAfterThePause = new CopyOnWriteArrayList<>();
    CountDownLatch resume = new CountDownLatch(1);
    JobHandler handler =
        job -> {
          starts.add(new Start(job.id(), job.holdsJob()));
          if (starts.size() == 1) {
            resume.await(); // paused while the lease is lost
            heldAfterThePause.add(job.holdsJob());
          }
        };
    List<Long> ids = emails(4);
    JobExecutor a = start("node-a", Map.of("email", handler), QUICK);
    // One job runs (concurrency 1), three wait for its slot.
    await().atMost(PATIENCE).until(() -> starts.size() == 1 && held(ids) == 4);
    long epoch = a.lease().epoch();

    expireLease("node-a");

    await().atMost(PATIENCE).until(() -> count("sluice.jobs.dropped", "node-a") == 3);
    assertThat(
            warnings("Node node-a drops the 3 job(s) it claimed under its lease node-a#" + epoch))
        .singleElement()
        .asString()
        .contains("the lease is lost (its renewal was refused)");
    resume.countDown();
    // Registered again, the node claims the jobs anew (they waited again) and runs them.
    await().atMost(PATIENCE).until(() -> finished(ids));
    assertThat(heldAfterThePause)
        .as("the paused handler, asked after the loss")
        .containsExactly(false);
    assertThat(starts)
        .as("every start was under a lease the node held")
        .allMatch(Start::held)
        .extracting(Start::id)
        .containsAll(ids);
    assertThat(a.lease().epoch()).isGreaterThan(epoch);
  }
}
