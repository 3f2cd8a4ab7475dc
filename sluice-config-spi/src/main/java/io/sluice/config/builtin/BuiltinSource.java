package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.SourceComponent;
import io.sluice.core.spi.Source;
import java.util.Map;

/** A source of the core, its schema fragment {@code <key>.schema.json} in this package. */
record BuiltinSource(String key, Mapping<Source> mapping, Map<String, Object> defaults)
    implements SourceComponent {

  @Override
  public Source map(ConfigNode node, MappingContext context) {
    return mapping.map(node, context);
  }
}
