package io.sluice.config.builtin;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.Processor;
import java.util.Map;

/** A processor or scope of the core, its schema fragment {@code <key>.schema.json} here. */
record BuiltinProcessor(String key, Mapping<Processor> mapping, Map<String, Object> defaults)
    implements ProcessorComponent {

  BuiltinProcessor(String key, Mapping<Processor> mapping) {
    this(key, mapping, Map.of());
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    return mapping.map(node, context);
  }
}
