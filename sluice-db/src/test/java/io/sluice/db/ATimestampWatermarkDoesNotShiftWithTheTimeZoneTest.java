package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A db-poll whose watermark is a timestamp, stopped in one time zone and started again in another
 * (a server moved, a container without the host's zone): a TIMESTAMP without zone (PostgreSQL's
 * {@code timestamp}, MariaDB's {@code datetime}) is kept as the local date-time it is, so the
 * second run hands over the rows inserted meanwhile and none of the first; PostgreSQL's {@code
 * timestamptz} is kept as its instant, as before; and a watermark kept by an earlier version (an
 * instant, {@code timestamp:...}) is still read.
 */
class ATimestampWatermarkDoesNotShiftWithTheTimeZoneTest {

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();

  private static final TimeZone DEFAULT = TimeZone.getDefault();
  private static final TimeZone BERLIN = TimeZone.getTimeZone("Europe/Berlin");
  private static final TimeZone NEW_YORK = TimeZone.getTimeZone("America/New_York");

  @TempDir Path data;

  static List<Object[]> zonelessColumns() {
    return List.of(
        new Object[] {TestDb.postgres(POSTGRES), "timestamp(6)"},
        new Object[] {TestDb.mariadb(MARIADB), "datetime(6)"});
  }

  @AfterEach
  void restoreTheTimeZone() {
    TimeZone.setDefault(DEFAULT);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("zonelessColumns")
  void aZonelessTimestampIsKeptAsALocalDateTime(TestDb db, String type) throws Exception {
    String table = table(db, type);
    StorageConfig store = StorageConfig.builder().dataDir(data).build();

    List<Long> first = inZone(BERLIN, () -> run(db, table, store, 6));
    DbPollWatermarkSurvivesARestartTest.insertAt(db, table, 7, 9);
    List<Long> second = inZone(NEW_YORK, () -> run(db, table, store, 3));

    assertThat(first).isEqualTo(Polled.ids(1, 6));
    assertThat(second).as("rows handed over in New York").isEqualTo(Polled.ids(7, 9));
    assertThat(kept(store)).isEqualTo("local:2024-05-01T10:00:09.000009");
  }

  @Test
  void aTimestampWithTimeZoneIsKeptAsItsInstant() throws Exception {
    TestDb db = TestDb.postgres(POSTGRES);
    String table = table(db, "timestamptz(6)");
    StorageConfig store = StorageConfig.builder().dataDir(data).build();

    List<Long> first = inZone(BERLIN, () -> run(db, table, store, 6));
    DbPollWatermarkSurvivesARestartTest.insertAt(db, table, 7, 9);
    List<Long> second = inZone(NEW_YORK, () -> run(db, table, store, 3));

    assertThat(first).isEqualTo(Polled.ids(1, 6));
    assertThat(second).isEqualTo(Polled.ids(7, 9));
    assertThat(kept(store)).startsWith("timestamp:");
  }

  @Test
  void aWatermarkKeptAsAnInstantByAnEarlierVersionIsRead() throws Exception {
    TestDb db = TestDb.postgres(POSTGRES);
    String table = table(db, "timestamp(6)");
    DbPollWatermarkSurvivesARestartTest.insertAt(db, table, 7, 9);
    StorageConfig store = StorageConfig.builder().dataDir(data).build();
    try (Application app = Application.builder().storage(store).build()) {
      // Row 6's time, as the earlier version wrote it in Berlin (UTC+2 in May).
      watermarks(app).put(DbPollSource.WATERMARK_KEY, "timestamp:2024-05-01T08:00:06.000006Z");
    }

    List<Long> resumed = inZone(BERLIN, () -> run(db, table, store, 3));

    assertThat(resumed).isEqualTo(Polled.ids(7, 9));
    assertThat(kept(store)).isEqualTo("local:2024-05-01T10:00:09.000009");
  }

  /** A table of rows 1 to 6 whose {@code created} column is of {@code type}. */
  private static String table(TestDb db, String type) throws Exception {
    String table = TestDb.table("events");
    db.execute("CREATE TABLE " + table + " (id integer, created " + type + ")");
    DbPollWatermarkSurvivesARestartTest.insertAt(db, table, 1, 6);
    return table;
  }

  private static <T> T inZone(TimeZone zone, Callable<T> work) throws Exception {
    TimeZone.setDefault(zone);
    try {
      return work.call();
    } finally {
      TimeZone.setDefault(DEFAULT);
    }
  }

  /** Runs a poll of {@code table} until {@code rows} rows completed and two more polls ran. */
  private static List<Long> run(TestDb db, String table, StorageConfig store, int rows)
      throws Exception {
    DbPollConfig config =
        Polled.byCreated(table, LocalDateTime.parse("2000-01-01T00:00:00")).build();
    Polled polled = new Polled();
    try (Application app =
        polled.application("events", new DbPollSource(db.dataSources(), config), store)) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= rows);
      double polls = Polled.polls(app.meterRegistry(), "events");
      await().until(() -> Polled.polls(app.meterRegistry(), "events") >= polls + 2);
    }
    return polled.delivered();
  }

  private static String kept(StorageConfig store) {
    try (Application app = Application.builder().storage(store).build()) {
      return String.valueOf(watermarks(app).get(DbPollSource.WATERMARK_KEY).orElse(null));
    }
  }

  private static ObjectStore watermarks(Application app) {
    return app.storage().objectStore(DbPollSource.storeName("events"), ObjectStoreOptions.DEFAULTS);
  }
}
