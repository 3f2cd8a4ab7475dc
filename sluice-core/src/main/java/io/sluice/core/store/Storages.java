package io.sluice.core.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;
import java.util.ServiceLoader;

/** Opens the storage a {@link StorageConfig} describes. */
public final class Storages {

  private Storages() {}

  /**
   * Opens the storage: in memory here, SQLite or PostgreSQL through the {@link StorageFactory} that
   * {@code loader} finds (sluice-jdbc). Fails with a {@link StoreException} when no factory is
   * installed for the type, or when the database cannot be opened.
   */
  public static Storage open(
      StorageConfig config,
      StoredValues values,
      MeterRegistry registry,
      Clock clock,
      ClassLoader loader) {
    if (config.type() == StorageConfig.Type.MEMORY) {
      return new MemoryStorage(clock);
    }
    for (StorageFactory factory : ServiceLoader.load(StorageFactory.class, loader)) {
      if (factory.type() == config.type()) {
        return factory.open(config, values, registry, clock);
      }
    }
    throw new StoreException(
        "the "
            + config.type().configName()
            + " store needs sluice-jdbc on the class path, and it is not there; add it, or set"
            + " sluice.store.type: memory to keep nothing across a restart");
  }
}
