package io.sluice.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.StorageConfig;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/** Opens storages for tests: SQLite files in a temporary directory, PostgreSQL test schemas. */
final class TestStorages {

  private TestStorages() {}

  /** Stored values with the detected default (fory, as sluice-serializers is on the path). */
  static StoredValues values() {
    return StoredValues.create(SerializationConfig.defaults());
  }

  /** Stored values whose default serializer is {@code serializer}. */
  static StoredValues values(String serializer) {
    return StoredValues.create(SerializationConfig.builder().serializer(serializer).build());
  }

  static StorageConfig sqliteConfig(Path dir) {
    return StorageConfig.builder().dataDir(dir).connectTimeout(Duration.ofSeconds(5)).build();
  }

  static JdbcStorage sqlite(Path dir, Clock clock) {
    return sqlite(dir, clock, new SimpleMeterRegistry());
  }

  static JdbcStorage sqlite(Path dir, Clock clock, MeterRegistry registry) {
    return (JdbcStorage)
        new SqliteStorageFactory().open(sqliteConfig(dir), values(), registry, clock);
  }

  static JdbcStorage postgres(PostgresTestDatabase db, Clock clock) {
    return postgres(db, clock, new SimpleMeterRegistry());
  }

  static JdbcStorage postgres(PostgresTestDatabase db, Clock clock, MeterRegistry registry) {
    return (JdbcStorage) new PostgresStorageFactory().open(db.config(), values(), registry, clock);
  }

  /**
   * Occupies one of {@code storage}'s writers with work that waits for {@code hold}, on one of
   * {@code threads}; the future completes once it is let go and committed.
   */
  static java.util.concurrent.Future<Object> holdAWriter(
      JdbcStorage storage,
      java.util.concurrent.CountDownLatch hold,
      java.util.concurrent.ExecutorService threads) {
    return threads.submit(
        () ->
            storage.write(
                "hold a writer",
                tx -> {
                  try {
                    hold.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return null;
                }));
  }
}
