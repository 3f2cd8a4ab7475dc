package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A db-poll without a watermark runs its query as it is at each poll: the flow deletes the rows it
 * handled (db-delete), so each is handed over once; nothing is kept, so the store is not opened.
 */
class DbPollWithoutAWatermarkTest {

  @TempDir Path dir;

  @Test
  void theFlowDeletesWhatItHandledAndNoStoreIsOpened() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = DbPollHandsEachRowOnceInOrderTest.createTable(db);
    Polled.insert(db, table, "a", 7);
    DataSources sources = db.dataSources();
    DbPollSource source =
        new DbPollSource(
            sources,
            DbPollConfig.builder("db", "SELECT id, sku FROM " + table + " ORDER BY id")
                .frequency(Duration.ofMillis(20))
                .maxRows(3)
                .build());
    DbUpdateProcessor delete =
        new DbUpdateProcessor(
            DbUpdateProcessor.Kind.DELETE,
            sources,
            DbStatement.of(
                "db",
                "DELETE FROM " + table + " WHERE id = :id",
                TestDb.parameters("id", "#[payload.id]"),
                "deleted"),
            false);
    Polled polled = new Polled();
    Path store = dir.resolve("store");
    try (Application app =
        Application.builder()
            .storage(StorageConfig.builder().dataDir(store).build())
            .flow(polled.flow("cleanup", source, delete))
            .build()) {
      app.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> polled.completed().size() >= 7);
      double polls = Polled.polls(app.meterRegistry(), "cleanup");
      await().until(() -> Polled.polls(app.meterRegistry(), "cleanup") >= polls + 2);
    }

    assertThat(polled.delivered()).isEqualTo(Polled.ids(1, 7));
    assertThat(source.watermark()).isNull();
    assertThat(db.number("SELECT count(*) FROM " + table)).isZero();
    assertThat(Files.exists(store.resolve(StorageConfig.DEFAULT_FILE_NAME))).isFalse();
  }
}
