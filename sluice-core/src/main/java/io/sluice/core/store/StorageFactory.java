package io.sluice.core.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.serialization.StoredValues;
import java.time.Clock;

/**
 * A store type other than the core's {@value StorageConfig#MEMORY}: its name, the rules of its
 * settings and how it opens. Found with {@link java.util.ServiceLoader} (sluice-jdbc lists its
 * {@code sqlite} and {@code postgresql} factories in {@code
 * META-INF/services/io.sluice.core.store.StorageFactory}); for YAML the type also registers a store
 * component of the configuration SPI, which gives its keys' schema and maps them.
 */
public interface StorageFactory {

  /** The store type this factory opens, as {@code sluice.store.type} names it: {@code sqlite}. */
  String type();

  /**
   * Records in {@code problems} every broken rule of {@code config}'s settings, each naming the key
   * ({@code sluice.store.poolSize}), the bad value and the rule; called by {@link
   * StorageConfig.Builder#build()}, before anything is opened.
   */
  default void check(StorageConfig config, ConfigProblems problems) {}

  /**
   * Opens the storage: connects, checks and migrates its schema. Fails with a {@link
   * StoreException} naming the file or URL (password masked) and what was tried. Values are written
   * and read through {@code values}; TTLs, lock expiries and redelivery delays are measured on
   * {@code clock}; meters go to {@code registry}.
   */
  Storage open(StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock);
}
