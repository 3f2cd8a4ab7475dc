package io.sluice.config.plugin;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.StoreComponent;
import java.util.List;

/**
 * A store type that lives only in the test sources, as a user's module would: {@code scratch}, an
 * in-memory store with one setting of its own, {@code maxStores} ({@code scratch.schema.json}
 * beside it), checked by {@link ScratchStorageFactory}.
 */
public final class ScratchStoreComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new Scratch());
  }

  /** {@code sluice.store.type: scratch}: its keys are read and built by the SPI's defaults. */
  static final class Scratch implements StoreComponent {
    @Override
    public String key() {
      return ScratchStorageFactory.TYPE;
    }

    @Override
    public boolean durable() {
      return false;
    }
  }
}
