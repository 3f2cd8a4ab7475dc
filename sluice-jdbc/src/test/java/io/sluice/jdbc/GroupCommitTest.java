package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoreException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many small writes share one commit, and a bad one among them fails alone. */
class GroupCommitTest {

  @TempDir Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private JdbcStorage storage;
  private DurableQueue queue;

  @BeforeEach
  void open() {
    storage = TestStorages.sqlite(dir, Clock.systemUTC(), registry);
    queue = storage.queue("q", QueueOptions.DEFAULTS);
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    storage.close();
  }

  private double commits() {
    return registry.get("sluice.store.commits").tag("type", "sqlite").counter().count();
  }

  @Test
  void concurrentWritersShareCommits() throws Exception {
    int writers = 32;
    int each = 50;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      done.add(
          threads.submit(
              () -> {
                start.await();
                for (int i = 0; i < each; i++) {
                  queue.enqueue("m");
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }

    assertThat(queue.size()).isEqualTo(writers * each);
    assertThat(commits()).isLessThan(writers * each);
    assertThat(registry.get("sluice.store.commit.writes").tag("type", "sqlite").summary().max())
        .isGreaterThan(1);
  }

  @Test
  void aFailingWriteFailsAloneAndLeavesNothingVisible() throws Exception {
    CountDownLatch hold = new CountDownLatch(1);
    Future<?> blocker = TestStorages.holdAWriter(storage, hold, threads);
    await().until(() -> storage.waitingWrites() == 0 && commits() == 0);
    List<Future<Long>> good = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      good.add(threads.submit(() -> queue.enqueue("good " + n)));
    }
    Future<Object> bad =
        threads.submit(
            () ->
                storage.write(
                    "enqueue a message without a payload",
                    tx -> {
                      // A message row goes in, then its payload fails: neither may be seen.
                      tx.prepare("INSERT INTO sluice_queue (queue, visible_at) VALUES ('q', 0)")
                          .executeUpdate();
                      tx.prepare("INSERT INTO sluice_queue_payload (id, payload) VALUES (-1, NULL)")
                          .executeUpdate();
                      return null;
                    }));
    await().until(() -> storage.waitingWrites() == 6);

    hold.countDown();

    blocker.get(10, TimeUnit.SECONDS);
    for (Future<Long> f : good) {
      assertThat(f.get(10, TimeUnit.SECONDS)).isPositive();
    }
    assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("Could not enqueue a message without a payload in sqlite " + dir)
        .hasMessageContaining("NOT NULL");
    assertThat(queue.size()).isEqualTo(5);
    assertThat(registry.get("sluice.store.commit.failures").counter().count()).isEqualTo(2);
  }
}
