package io.sluice.batch.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import java.util.List;

/**
 * Batch in configuration files: the {@code batch-execute} processor and the {@code batch} section.
 */
public final class BatchComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new BatchExecuteComponent(), new BatchSection());
  }
}
