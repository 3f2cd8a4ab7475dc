package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A db-poll in a flow, on PostgreSQL, MariaDB and SQLite: every row is handed over once, in the
 * query's order, polls of maxRows one after the other while a backlog lasts, rows inserted while it
 * polls are picked up, and its meters say what it did.
 */
class DbPollHandsEachRowOnceInOrderTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  static String createTable(TestDb db) throws Exception {
    String table = TestDb.table("orders");
    db.execute("CREATE TABLE " + table + " (" + db.idColumn() + ", sku varchar(20) not null)");
    return table;
  }

  @ParameterizedTest
  @MethodSource("databases")
  void eachRowIsHandedOverOnceInOrderAndNewRowsArePickedUp(TestDb db) throws Exception {
    String table = createTable(db);
    Polled.insert(db, table, "a", 25);
    DbPollSource source =
        new DbPollSource(db.dataSources(), Polled.byId(table).maxRows(10).fetchSize(4).build());
    Polled polled = new Polled();
    try (Application app = polled.application("orders", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 25);
      Polled.insert(db, table, "b", 5);
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 30);
      double polls = Polled.polls(app.meterRegistry(), "orders");
      await().until(() -> Polled.polls(app.meterRegistry(), "orders") >= polls + 2);

      assertThat(polled.delivered()).isEqualTo(Polled.ids(1, 30));
      assertThat(polled.deliveries())
          .allSatisfy(d -> assertThat(((Number) d.watermark()).longValue()).isEqualTo(d.id()));
      MeterRegistry meters = app.meterRegistry();
      assertThat(meters.get("sluice.db.poll.rows").tag("flow", "orders").counter().count())
          .isEqualTo(30);
      assertThat(meters.get("sluice.db.poll.failed").tag("flow", "orders").counter().count())
          .isZero();
      assertThat(meters.get("sluice.db.poll.watermark").tag("flow", "orders").gauge().value())
          .isEqualTo(30);
      assertThat(source.watermark()).isEqualTo(30L);
    }
  }

  @ParameterizedTest
  @MethodSource("databases")
  void pagesOfRowsAreHandedOverInOrder(TestDb db) throws Exception {
    String table = createTable(db);
    Polled.insert(db, table, "a", 23);
    DbPollSource source =
        new DbPollSource(
            db.dataSources(),
            DbPollConfig.builder(
                    "db", "SELECT * FROM " + table + " WHERE id > :watermark ORDER BY id")
                .frequency(Duration.ofMillis(50))
                .watermarkColumn("ID")
                .initialWatermark(0)
                .maxRows(10)
                .perRow(false)
                .pageSize(4)
                .build());
    Polled polled = new Polled();
    try (Application app = polled.application("pages", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 23);

      assertThat(polled.delivered()).isEqualTo(Polled.ids(1, 23));
      // Pages of 4 within polls of 10: 4, 4, 2 | 4, 4, 2 | 3; each page's watermark its last id.
      assertThat(polled.deliveries().stream().map(d -> ((Number) d.watermark()).longValue()))
          .containsOnly(4L, 8L, 10L, 14L, 18L, 20L, 23L);
      assertThat(source.watermark()).isEqualTo(23L);
    }
  }

  @ParameterizedTest
  @MethodSource("databases")
  void rowsSharingAWatermarkAreNotSkippedWhereAFullPollCutsThem(TestDb db) throws Exception {
    String table = TestDb.table("grouped");
    db.execute(
        "CREATE TABLE "
            + table
            + " ("
            + db.idColumn()
            + ", sku varchar(20) not null, grp integer not null)");
    int[] groups = {1, 2, 2, 2, 3, 3, 4};
    for (int grp : groups) {
      db.execute("INSERT INTO " + table + " (sku, grp) VALUES ('g" + grp + "', " + grp + ")");
    }
    DbPollSource source =
        new DbPollSource(
            db.dataSources(),
            DbPollConfig.builder(
                    "db",
                    "SELECT id, sku, grp FROM "
                        + table
                        + " WHERE grp > :watermark ORDER BY grp, id")
                .frequency(Duration.ofMillis(20))
                .watermarkColumn("grp")
                .initialWatermark(0)
                .maxRows(3)
                .build());
    Polled polled = new Polled();
    try (Application app = polled.application("grouped", source, StorageConfig.memory())) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 7);
      double polls = Polled.polls(app.meterRegistry(), "grouped");
      await().until(() -> Polled.polls(app.meterRegistry(), "grouped") >= polls + 2);

      // The first poll of 3 cuts the run of 2s: without holding it back, the watermark would
      // pass the third 2, which that poll did not read.
      assertThat(polled.delivered()).isEqualTo(Polled.ids(1, 7));
      assertThat(((Number) source.watermark()).longValue()).isEqualTo(4);
    }
  }
}
