package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.jobs.spi.NewJob;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * How long a node waits between claims, on a real database: the idle wait that grows with empty
 * claims and starts again when one finds a job, and the optimistic backoff level that holds until
 * enough clean cycles in a row. The waits are read from a {@link SteppedJobStore}, which lets the
 * test end each one, so nothing sleeps through them. Extended for SQLite and PostgreSQL.
 */
abstract class AcquisitionPaceContract extends JobExecutorFixture {

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  /** The next {@code count} waits, each ended once the loop asked for it. */
  private static List<Duration> waits(SteppedJobStore stepped, int count) throws Exception {
    List<Duration> waits = new ArrayList<>();
    while (waits.size() < count) {
      waits.add(stepped.nextWait());
      stepped.endWait();
    }
    return waits;
  }

  @Test
  void emptyClaimsInARowWaitLongerUpToTheMaximumAndAClaimThatFindsAJobStartsAgain()
      throws Exception {
    SteppedJobStore stepped = new SteppedJobStore(store);
    List<Object> ran = new CopyOnWriteArrayList<>();
    start(
        stepped,
        "node-a",
        Map.of("email", job -> ran.add(job.payload())),
        c -> c.idleWait(ms(100)).idleWaitFactor(2).maxIdleWait(ms(800)));

    // Each claim of the empty table waits twice as long as the one before, up to the maximum.
    assertThat(waits(stepped, 6))
        .containsExactly(ms(100), ms(200), ms(400), ms(800), ms(800), ms(800));

    store.create(NewJob.of("email", "found"));
    await().atMost(PATIENCE).until(() -> ran.size() == 1);
    // Claims before the job was there (another wake-up) waited the maximum; the claim that found it
    // waits the first wait again (it found fewer than its room), and so does the first empty claim
    // after it; the growth starts over.
    List<Duration> after = new ArrayList<>(waits(stepped, 4));
    // Bounded: without the reset every wait stays at the maximum, and the assertion says so.
    for (int extra = 0; extra < 10 && after.getFirst().equals(ms(800)); extra++) {
      after.removeFirst();
      after.add(stepped.nextWait());
      stepped.endWait();
    }
    assertThat(after).containsExactly(ms(100), ms(100), ms(200), ms(400));
    assertThat(count("sluice.jobs.executed", "node-a")).isEqualTo(1);
  }

  @Test
  void withoutAnIdleWaitAnIdleNodeWaitsTheSafetyPoll() throws Exception {
    SteppedJobStore stepped = new SteppedJobStore(store);
    start(stepped, "node-a", Map.of("email", job -> {}), c -> c.safetyPoll(Duration.ofMinutes(10)));

    assertThat(waits(stepped, 3))
        .as("the safety poll, ±20%, not growing")
        .allSatisfy(
            wait -> assertThat(wait).isBetween(Duration.ofMinutes(8), Duration.ofMinutes(12)));
  }

  @Test
  void aJobCreatedWithoutANotificationIsFoundWithinTheIdleWaitRatherThanTheSafetyPoll()
      throws Exception {
    List<Object> ran = new CopyOnWriteArrayList<>();
    start(
        "node-a",
        Map.of("email", job -> ran.add(job.payload())),
        c -> c.idleWait(ms(50)).maxIdleWait(ms(200)).safetyPoll(Duration.ofMinutes(10)));
    await().atMost(PATIENCE).until(() -> count("sluice.jobs.acquisition.attempts", "node-a") >= 3);

    // In a transaction of the caller's: SQLite has nobody to tell (PostgreSQL notifies on commit).
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      store.create(connection, NewJob.of("email", "quietly"));
      connection.commit();
    }

    await().atMost(PATIENCE).until(() -> ran.equals(List.of("quietly")));
  }

  @Test
  void theOptimisticBackoffLevelDropsOnlyAfterTheThresholdOfCleanCyclesInARow() throws Exception {
    SteppedJobStore stepped = new SteppedJobStore(store);
    stepped.collideNext(2);
    start(
        stepped,
        "node-a",
        Map.of("email", job -> {}),
        c ->
            c.acquisition(Acquisition.OPTIMISTIC)
                .concurrency(8)
                .prefetch(8)
                .jobsPerCycle(2)
                .maxJobsPerCycle(16)
                .acquisitionBackoff(ms(10))
                .maxAcquisitionBackoff(ms(40))
                .acquisitionBackoffDecreaseThreshold(3));

    List<Duration> waits = waits(stepped, 9);

    // Two cycles with a lock failure raise the level to 2 (2 → 4 → 8 candidates); it holds for
    // three clean cycles, drops to 1 for three more, then to 0.
    assertThat(List.copyOf(stepped.candidatesAsked()).subList(0, 9))
        .containsExactly(2, 4, 8, 8, 8, 4, 4, 4, 2);
    assertThat(waits.get(0)).as("level 1, ±20%").isBetween(ms(8), ms(12));
    assertThat(waits.get(1)).as("level 2, ±20%").isBetween(ms(16), ms(24));
    assertThat(count("sluice.jobs.lock.failures", "node-a")).isEqualTo(2);
  }
}
