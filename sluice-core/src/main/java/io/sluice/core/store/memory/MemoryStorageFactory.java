package io.sluice.core.store.memory;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StorageFactory;
import java.time.Clock;

/**
 * The core's own store type, {@value StorageConfig#MEMORY}: nothing survives the process. Found
 * like any other type through {@code META-INF/services}, so the store package names no
 * implementation.
 */
public final class MemoryStorageFactory implements StorageFactory {

  /** Made by {@link java.util.ServiceLoader}. */
  public MemoryStorageFactory() {}

  @Override
  public String type() {
    return StorageConfig.MEMORY;
  }

  @Override
  public void check(StorageConfig config, ConfigProblems problems) {
    MemoryStorage.check(config, problems);
  }

  @Override
  public Storage open(
      StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock) {
    return new MemoryStorage(clock);
  }
}
