package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row whose message fails holds the watermark before it: the poll stops there, and the next one
 * hands it over again, then the rows after it; one that keeps failing is given up after
 * maxDeliveries, the watermark moving past it and the store naming it. On SQLite.
 */
class DbPollRetriesAFailingRowTest {

  @TempDir Path dir;

  private String table(TestDb db) throws Exception {
    String table = DbPollHandsEachRowOnceInOrderTest.createTable(db);
    Polled.insert(db, table, "a", 8);
    return table;
  }

  @Test
  void aFailingRowHoldsTheWatermarkAndIsRetriedAtTheNextPoll() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = table(db);
    Map<Long, AtomicInteger> tries = new ConcurrentHashMap<>();
    Polled polled =
        new Polled(
            id ->
                id == 3
                    && tries.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet() <= 2);
    DbPollSource source = new DbPollSource(db.dataSources(), Polled.byId(table).build());
    try (Application app = polled.application("orders", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 8);
      assertThat(
              app.meterRegistry()
                  .get("sluice.db.poll.failed")
                  .tag("flow", "orders")
                  .counter()
                  .count())
          .isEqualTo(2);
    }

    assertThat(polled.delivered()).containsExactly(1L, 2L, 3L, 3L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(polled.completed()).isEqualTo(Polled.ids(1, 8));
    assertThat(polled.deliveries().stream().filter(d -> d.id() == 3).map(d -> d.pollWatermark()))
        .as("the watermark never passed row 3 before it completed: 0 in the first poll, then 2")
        .containsExactly(0L, 2L, 2L);
  }

  @Test
  void aRowThatKeepsFailingIsGivenUpAfterMaxDeliveries() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = table(db);
    Polled polled = new Polled(id -> id == 5);
    DbPollSource source =
        new DbPollSource(db.dataSources(), Polled.byId(table).maxDeliveries(3).build());
    try (Application app =
        polled.application("orders", source, StorageConfig.builder().dataDir(dir).build())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.delivered().contains(8L));
      ObjectStore store =
          app.storage().objectStore(DbPollSource.storeName("orders"), ObjectStoreOptions.DEFAULTS);
      assertThat(store.get("dead.long:5").map(String::valueOf))
          .hasValueSatisfying(
              reason -> assertThat(reason).contains("given up after 3 deliveries", "row 5 fails"));
      await()
          .until(
              () -> store.get(DbPollSource.WATERMARK_KEY).equals(java.util.Optional.of("long:8")));
      assertThat(
              app.meterRegistry()
                  .get("sluice.db.poll.dead")
                  .tag("flow", "orders")
                  .counter()
                  .count())
          .isEqualTo(1);
    }

    assertThat(polled.delivered()).containsExactly(1L, 2L, 3L, 4L, 5L, 5L, 5L, 6L, 7L, 8L);
  }

  @Test
  void withoutABoundTheWatermarkWaitsForTheRow() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = table(db);
    AtomicInteger fives = new AtomicInteger();
    Polled polled = new Polled(id -> id == 5 && fives.incrementAndGet() > 0);
    DbPollSource source =
        new DbPollSource(db.dataSources(), Polled.byId(table).maxDeliveries(0).build());
    try (Application app = polled.application("orders", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> fives.get() >= 6);
    }

    assertThat(polled.completed()).isEqualTo(Polled.ids(1, 4));
    assertThat(source.watermark()).isEqualTo(4L);
  }

  @Test
  void aRowWhoseDatabaseIsAwayIsNeverGivenUp() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = table(db);
    AtomicInteger threes = new AtomicInteger();
    Polled polled =
        new Polled(
            id -> id == 3 && threes.incrementAndGet() <= 4,
            id ->
                new DbException(
                    DbException.CONNECTIVITY, "orders-db", "db-insert", "08006", "gone", null));
    DbPollSource source =
        new DbPollSource(db.dataSources(), Polled.byId(table).maxDeliveries(2).build());
    try (Application app = polled.application("orders", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 8);
      assertThat(
              app.meterRegistry()
                  .get("sluice.db.poll.dead")
                  .tag("flow", "orders")
                  .counter()
                  .count())
          .isZero();
    }

    assertThat(polled.delivered()).containsExactly(1L, 2L, 3L, 3L, 3L, 3L, 3L, 4L, 5L, 6L, 7L, 8L);
  }
}
