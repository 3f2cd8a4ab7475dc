package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On PostgreSQL a node commits on more than one connection, closing stops them all, and a write
 * that loses a deadlock is run again.
 */
class PostgresWritersTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void halfThePoolWritesAtMostTwoConnections() {
    assertThat(PostgresStorageFactory.writers(1)).isEqualTo(1);
    assertThat(PostgresStorageFactory.writers(3)).isEqualTo(1);
    assertThat(PostgresStorageFactory.writers(4)).isEqualTo(2);
    assertThat(PostgresStorageFactory.writers(10)).isEqualTo(2);
  }

  @Test
  void aWriteCommitsWhileAnotherWriterIsBusyAndCloseStopsBoth() throws Exception {
    // The test database's pool has 4 connections: two of them write.
    JdbcStorage storage = TestStorages.postgres(DB, Clock.systemUTC());
    DurableQueue queue = storage.queue("side-by-side", QueueOptions.DEFAULTS);
    CountDownLatch hold = new CountDownLatch(1);
    Future<Object> held = TestStorages.holdAWriter(storage, hold, threads);
    await().until(() -> storage.waitingWrites() == 0);

    Future<Long> enqueued = threads.submit(() -> queue.enqueue("while the other one waits"));

    assertThat(enqueued.get(10, TimeUnit.SECONDS)).isPositive();
    assertThat(held).isNotDone();
    assertThat(queue.size()).isEqualTo(1);

    hold.countDown();
    held.get(10, TimeUnit.SECONDS);
    Future<?> closed = threads.submit(storage::close);
    closed.get(10, TimeUnit.SECONDS);
  }

  /**
   * Write work that PostgreSQL rolls back as a deadlock's victim (two transactions each holding a
   * row the other wants, as the two lanes can: the batch store's moves and loads did, and a batch
   * job failed) is run again and commits, rather than failing its caller.
   */
  @Test
  void writeWorkThatLosesADeadlockIsRunAgainAndCommits() throws Exception {
    DB.execute("DROP TABLE IF EXISTS crossed");
    DB.execute("CREATE TABLE crossed (id int PRIMARY KEY, v int NOT NULL)");
    DB.execute("INSERT INTO crossed VALUES (1, 0), (2, 0)");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (JdbcStorage storage = TestStorages.postgres(DB, Clock.systemUTC(), registry);
        Connection other = DB.connect();
        Statement s = other.createStatement()) {
      other.setAutoCommit(false);
      s.executeUpdate("UPDATE crossed SET v = v + 1 WHERE id = 2");

      // The writer takes row 1, then waits for row 2, which the other transaction holds.
      Future<Integer> written =
          threads.submit(
              () ->
                  storage.write(
                      "update both rows",
                      tx -> {
                        tx.prepare("UPDATE crossed SET v = v + 10 WHERE id = 1").executeUpdate();
                        return tx.prepare("UPDATE crossed SET v = v + 10 WHERE id = 2")
                            .executeUpdate();
                      }));
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingForALock() == 1);
      // The other transaction now wants row 1: a deadlock. The writer waited first, so its check
      // (after deadlock_timeout) finds it and PostgreSQL rolls the writer's transaction back.
      s.executeUpdate("UPDATE crossed SET v = v + 1 WHERE id = 1");
      other.commit();

      assertThat(written.get(10, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(registry.get("sluice.store.commit.conflicts").counter().count()).isEqualTo(1);
      try (ResultSet rows = s.executeQuery("SELECT v FROM crossed ORDER BY id")) {
        rows.next();
        assertThat(rows.getInt(1)).isEqualTo(11);
        rows.next();
        assertThat(rows.getInt(1)).isEqualTo(11);
      }
    } finally {
      DB.execute("DROP TABLE IF EXISTS crossed");
    }
  }

  /** How many of the storage's sessions wait for a row lock, seen from outside. */
  private static int waitingForALock() throws Exception {
    try (Connection look = DB.connect();
        Statement s = look.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'sluice'"
                    + " AND wait_event_type = 'Lock' AND query LIKE 'UPDATE crossed%'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
