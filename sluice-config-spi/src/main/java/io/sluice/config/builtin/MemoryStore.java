package io.sluice.config.builtin;

import io.sluice.config.spi.StoreComponent;
import io.sluice.core.store.StorageConfig;

/** The core's store type {@code memory}: nothing survives the process, and it adds no key. */
final class MemoryStore implements StoreComponent {

  @Override
  public String key() {
    return StorageConfig.MEMORY;
  }

  @Override
  public boolean durable() {
    return false;
  }
}
