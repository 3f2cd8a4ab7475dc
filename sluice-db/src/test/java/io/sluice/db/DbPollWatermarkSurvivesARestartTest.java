package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The watermark is kept in the application's store: an application stopped and started again on the
 * same store file hands over the rows inserted meanwhile and none it handed over before, with a
 * numeric key and with a timestamp column (text on SQLite), on each database.
 */
class DbPollWatermarkSurvivesARestartTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aRestartResumesAfterTheLastKeyHandedOver(TestDb db, @TempDir Path data) throws Exception {
    String table = DbPollHandsEachRowOnceInOrderTest.createTable(db);
    Polled.insert(db, table, "a", 12);
    DbPollConfig config = Polled.byId(table).maxRows(5).build();
    StorageConfig store = StorageConfig.builder().dataDir(data).build();

    Polled first = new Polled();
    try (Application app =
        first.application("orders", new DbPollSource(db.dataSources(), config), store)) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> first.completed().size() >= 12);
    }
    Polled.insert(db, table, "b", 4);
    Polled second = new Polled();
    try (Application app =
        second.application("orders", new DbPollSource(db.dataSources(), config), store)) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> second.completed().size() >= 4);
      double polls = Polled.polls(app.meterRegistry(), "orders");
      await().until(() -> Polled.polls(app.meterRegistry(), "orders") >= polls + 2);
      assertThat(
              app.storage()
                  .objectStore(DbPollSource.storeName("orders"), ObjectStoreOptions.DEFAULTS)
                  .get(DbPollSource.WATERMARK_KEY))
          .contains("long:16");
    }

    assertThat(first.delivered()).isEqualTo(Polled.ids(1, 12));
    assertThat(second.delivered()).isEqualTo(Polled.ids(13, 16));
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aTimestampWatermarkResumesAfterTheLastRowHandedOver(TestDb db, @TempDir Path data)
      throws Exception {
    String table = TestDb.table("events");
    String type =
        switch (db.kind()) {
          case "postgresql" -> "timestamp(6)";
          case "mariadb" -> "datetime(6)";
          default -> "text";
        };
    db.execute("CREATE TABLE " + table + " (id integer, created " + type + ")");
    insertAt(db, table, 1, 6);
    DbPollConfig config =
        Polled.byCreated(
                table,
                db.kind().equals("sqlite")
                    ? "2000-01-01 00:00:00"
                    : java.time.LocalDateTime.parse("2000-01-01T00:00:00"))
            .maxRows(4)
            .build();
    StorageConfig store = StorageConfig.builder().dataDir(data).build();

    Polled first = new Polled();
    try (Application app =
        first.application("events", new DbPollSource(db.dataSources(), config), store)) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> first.completed().size() >= 6);
    }
    insertAt(db, table, 7, 9);
    Polled second = new Polled();
    try (Application app =
        second.application("events", new DbPollSource(db.dataSources(), config), store)) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> second.completed().size() >= 3);
      double polls = Polled.polls(app.meterRegistry(), "events");
      await().until(() -> Polled.polls(app.meterRegistry(), "events") >= polls + 2);
    }

    assertThat(first.delivered()).isEqualTo(Polled.ids(1, 6));
    assertThat(second.delivered()).isEqualTo(Polled.ids(7, 9));
    assertThat(second.deliveries().getFirst().pollWatermark().toString())
        .as("the watermark kept: row 6's time, to the microsecond")
        .contains("10:00:06.00000")
        .endsWith("6");
  }

  /** Rows {@code from}..{@code to}, row n created at 2024-05-01 10:00:0n.00000n. */
  static void insertAt(TestDb db, String table, int from, int to) throws Exception {
    List<String> rows = new java.util.ArrayList<>();
    for (int n = from; n <= to; n++) {
      rows.add("(" + n + ", '2024-05-01 10:00:0" + n + ".00000" + n + "')");
    }
    db.execute("INSERT INTO " + table + " (id, created) VALUES " + String.join(", ", rows));
  }
}
