package io.sluice.jdbc.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.StoreComponent;
import io.sluice.core.store.StorageConfig;
import java.util.List;
import java.util.Map;

/**
 * The store types of sluice-jdbc in configuration files: {@code sqlite} (the default) and {@code
 * postgresql}, whose keys under {@code sluice.store} are described in {@code sqlite.schema.json}
 * and {@code postgresql.schema.json}; their settings are checked by their factories.
 */
public final class JdbcStoreComponents implements ComponentProvider {

  /** A provider; found by {@link java.util.ServiceLoader}. */
  public JdbcStoreComponents() {}

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(
        new JdbcStore(
            StorageConfig.SQLITE,
            Map.of(
                "/properties/dataDir", StorageConfig.DEFAULT_DATA_DIR,
                "/properties/sync", StorageConfig.Sync.FULL,
                "/properties/connectTimeout", StorageConfig.DEFAULT_CONNECT_TIMEOUT)),
        new JdbcStore(
            StorageConfig.POSTGRESQL,
            Map.of(
                "/properties/poolSize", StorageConfig.DEFAULT_POOL_SIZE,
                "/properties/connectTimeout", StorageConfig.DEFAULT_CONNECT_TIMEOUT)));
  }

  /** A store type of this module: its keys are typed settings of {@link StorageConfig}. */
  private record JdbcStore(String key, Map<String, Object> defaults) implements StoreComponent {}
}
