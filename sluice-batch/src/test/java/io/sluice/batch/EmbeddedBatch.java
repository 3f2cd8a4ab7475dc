package io.sluice.batch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.time.Clock;

/** The tests' fixture: an embedded store in a directory, an application on it, its engine. */
final class EmbeddedBatch implements AutoCloseable {

  static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  final Storage storage;
  final Application application;
  final BatchEngine engine;

  EmbeddedBatch(Path dir) {
    storage =
        new SqliteStorageFactory()
            .open(
                StorageConfig.builder().dataDir(dir).build(),
                VALUES,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
    application = Application.builder().storage(storage).storedValues(VALUES).build();
    engine = BatchEngine.of(application);
  }

  @Override
  public void close() {
    application.close();
    storage.close();
  }
}
