package io.sluice.config.plugin;

import io.sluice.config.spi.ComponentProvider;
import io.sluice.config.spi.ConfigComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A component that lives only in the test sources, as a user's module would: the {@code shout}
 * processor, registered in {@code plugin/META-INF/services}, its schema {@code shout.schema.json}
 * beside it.
 */
public final class ShoutComponents implements ComponentProvider {

  /** How many exclamation marks follow unless {@code marks} says. */
  public static final int DEFAULT_MARKS = 1;

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
      return Map.of("/properties/marks", DEFAULT_MARKS);
    }

    @Override
    public Processor map(ConfigNode node, MappingContext context) {
      int marks = node.integer("marks", DEFAULT_MARKS);
      String ending = "!".repeat(Math.max(0, marks));
      return Processor.of(
          ProcessingType.CPU_LITE,
          message ->
              message.withPayload(
                  String.valueOf(message.payload()).toUpperCase(Locale.ROOT) + ending));
    }
  }
}
