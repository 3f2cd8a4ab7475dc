package io.sluice.config.spi;

import io.sluice.core.spi.Source;

/** A component written as a flow's {@code source:}. */
public interface SourceComponent extends ConfigComponent<Source> {

  @Override
  default ComponentKind kind() {
    return ComponentKind.SOURCE;
  }
}
