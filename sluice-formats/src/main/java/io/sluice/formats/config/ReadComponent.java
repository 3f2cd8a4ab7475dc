package io.sluice.formats.config;

import io.sluice.config.spi.ByteSize;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.Format;
import io.sluice.formats.ReadConfig;
import io.sluice.formats.ReadProcessor;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code read} processor. */
final class ReadComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "read";
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    ReadConfig d = ReadConfig.builder().build();
    ReadConfig.Builder config =
        ReadConfig.builder()
            .format(node.enumValue("format", Format.class, null))
            .mimeType(node.text("mimeType", null))
            .target(node.text("target", null))
            .streaming(node.bool("streaming", d.streaming()))
            .header(node.bool("header", d.header()))
            .separator(Characters.of(node, "separator", d.separator()))
            .quote(Characters.of(node, "quote", d.quote()))
            .maxDepth(node.integer("maxDepth", d.maxDepth()))
            .maxSize(node.size("maxSize", d.maxSize()))
            .processingType(node.enumValue("processingType", ProcessingType.class, null));
    ReadConfig built = context.problems().attempt(node.path(), config::build);
    return built == null ? null : new ReadProcessor(built);
  }

  @Override
  public Map<String, Object> defaults() {
    ReadConfig d = ReadConfig.builder().build();
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("/properties/streaming", d.streaming());
    defaults.put("/properties/header", d.header());
    defaults.put("/properties/separator", String.valueOf(d.separator()));
    defaults.put("/properties/quote", String.valueOf(d.quote()));
    defaults.put("/properties/maxDepth", d.maxDepth());
    defaults.put("/properties/maxSize", new ByteSize(d.maxSize()));
    return defaults;
  }
}
