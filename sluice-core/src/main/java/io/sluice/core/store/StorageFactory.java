package io.sluice.core.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;

/**
 * Opens a storage of one {@link StorageConfig.Type}; found with {@link java.util.ServiceLoader}
 * (sluice-jdbc lists its SQLite and PostgreSQL factory in {@code
 * META-INF/services/io.sluice.core.store.StorageFactory}).
 */
public interface StorageFactory {

  /** The type this factory opens. */
  StorageConfig.Type type();

  /**
   * Opens the storage: connects, checks and migrates its schema. Fails with a {@link
   * StoreException} naming the file or URL (password masked) and what was tried. Values are written
   * and read through {@code values}; TTLs, lock expiries and redelivery delays are measured on
   * {@code clock}; meters go to {@code registry}.
   */
  Storage open(StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock);
}
