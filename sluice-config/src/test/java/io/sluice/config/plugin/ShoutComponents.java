package io.sluice.config.plugin;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.Map;

/**
 * A component that lives only in the test sources, as a user's module would: the {@code shout}
 * processor, registered in {@code plugin/META-INF/services}, its schema {@code shout.schema.json}
 * beside it. It is the example of {@code docs/components.md}, which quotes it.
 */
public final class ShoutComponents implements ComponentProvider {

  @Override
  public List<ConfigComponent<?>> components() {
    return List.of(new Shout());
  }

  /** {@code shout}: the payload in capitals, followed by exclamation marks. */
  static final class Shout implements ProcessorComponent {

    @Override
    public String key() {
      return "shout";
    }

    @Override
    public Map<String, Object> defaults() {
      return Map.of("/properties/marks", ShoutProcessor.DEFAULT_MARKS);
    }

    @Override
    public Processor map(ConfigNode node, MappingContext context) {
      int marks = node.integer("marks", ShoutProcessor.DEFAULT_MARKS);
      return context.problems().attempt(node.get("marks").path(), () -> new ShoutProcessor(marks));
    }
  }
}
