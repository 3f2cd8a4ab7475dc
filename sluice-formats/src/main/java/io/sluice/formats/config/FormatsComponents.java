package io.sluice.formats.config;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import java.util.List;

/** Data formats in configuration files: {@code read}, {@code write} and {@code transform}. */
public final class FormatsComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new ReadComponent(), new WriteComponent(), new TransformComponent());
  }
}
