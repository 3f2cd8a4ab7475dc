package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** On PostgreSQL a node commits on more than one connection, and closing stops them all. */
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
}
