package io.sluice.jobs;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.jdbc.SqliteStorageFactory;
import io.sluice.jobs.spi.JobStore;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;

/** Storages and job stores for the tests: SQLite files in a directory, PostgreSQL test schemas. */
final class JobTestStorages {

  static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  private JobTestStorages() {}

  static Storage sqlite(Path dir, Clock clock) {
    StorageConfig config =
        StorageConfig.builder().dataDir(dir).connectTimeout(Duration.ofSeconds(5)).build();
    return new SqliteStorageFactory().open(config, VALUES, new SimpleMeterRegistry(), clock);
  }

  static Connection sqliteConnection(Path dir) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
  }

  static Storage postgres(PostgresTestDatabase db, Clock clock) {
    return new PostgresStorageFactory().open(db.config(), VALUES, new SimpleMeterRegistry(), clock);
  }

  static JobStore jobs(Storage storage) {
    return JobStores.open(storage, VALUES, Duration.ofSeconds(1));
  }

  /** A job store of {@code storage}, 1 s aging, keeping its history for {@code history}. */
  static JobStore jobs(Storage storage, Duration history) {
    return JobStores.open(storage, VALUES, ClaimOrder.PRIORITY, Duration.ofSeconds(1), history);
  }
}
