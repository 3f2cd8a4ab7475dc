package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two storages on one PostgreSQL act as two nodes sharing the queues. */
class PostgresNodesTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private JdbcStorage nodeA;
  private JdbcStorage nodeB;

  @BeforeEach
  void open() throws Exception {
    DB.dropTables();
    nodeA = TestStorages.postgres(DB, Clock.systemUTC());
    nodeB = TestStorages.postgres(DB, Clock.systemUTC());
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    nodeA.close();
    nodeB.close();
  }

  @Test
  void competingConsumersOnTwoNodesGetEachMessageExactlyOnce() throws Exception {
    int messages = 3000;
    nodeA
        .queue("work", QueueOptions.DEFAULTS)
        .enqueueAll(IntStream.range(0, messages).boxed().toList());
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger duplicates = new AtomicInteger();
    AtomicInteger acked = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> consumers = new ArrayList<>();
    for (JdbcStorage node : List.of(nodeA, nodeB)) {
      for (int c = 0; c < 4; c++) {
        DurableQueue queue = node.queue("work", QueueOptions.DEFAULTS);
        consumers.add(
            threads.submit(
                () -> {
                  start.await();
                  while (true) {
                    List<Delivery> taken = queue.take(25);
                    if (taken.isEmpty()) {
                      return null;
                    }
                    for (Delivery d : taken) {
                      if (!seen.add(d.id())) {
                        duplicates.incrementAndGet();
                      }
                    }
                    acked.addAndGet(queue.ackAll(taken));
                  }
                }));
      }
    }
    start.countDown();
    for (Future<?> consumer : consumers) {
      consumer.get(60, TimeUnit.SECONDS);
    }

    assertThat(duplicates).hasValue(0);
    assertThat(seen).hasSize(messages);
    assertThat(acked).hasValue(messages);
    assertThat(nodeB.queue("work", QueueOptions.DEFAULTS).size()).isZero();
  }

  @Test
  void aWaitingTakeOnOneNodeWakesWhenAnotherNodeEnqueues() throws Exception {
    // No polling to fall back on: only the notification can wake the take in time.
    nodeB.recheckEvery(Duration.ofMinutes(10));
    DurableQueue onB = nodeB.queue("wake", QueueOptions.DEFAULTS);
    CountDownLatch waiting = new CountDownLatch(1);
    Future<List<Delivery>> take =
        threads.submit(
            () -> {
              waiting.countDown();
              return onB.take(1, Duration.ofMinutes(5));
            });
    waiting.await();

    nodeA.queue("wake", QueueOptions.DEFAULTS).enqueue("hello from A");

    assertThat(take.get(10, TimeUnit.SECONDS))
        .extracting(Delivery::payload)
        .containsExactly("hello from A");
  }
}
