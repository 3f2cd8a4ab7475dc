package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;

/** How one built-in component maps its node. */
@FunctionalInterface
interface Mapping<T> {
  T map(ConfigNode node, MappingContext context);
}
