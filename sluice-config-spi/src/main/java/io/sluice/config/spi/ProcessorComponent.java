package io.sluice.config.spi;

import io.sluice.core.spi.Processor;

/** A component written as an item of a processor list; scopes map their own lists. */
public interface ProcessorComponent extends ConfigComponent<Processor> {

  @Override
  default ComponentKind kind() {
    return ComponentKind.PROCESSOR;
  }
}
