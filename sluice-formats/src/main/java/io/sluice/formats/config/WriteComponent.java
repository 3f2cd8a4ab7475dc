package io.sluice.formats.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.Format;
import io.sluice.formats.WriteConfig;
import io.sluice.formats.WriteProcessor;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code write} processor. */
final class WriteComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "write";
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    Format format = node.enumValue("format", Format.class, null);
    if (format == null) {
      if (!node.has("format")) {
        context.problems().add(node.get("format").path(), null, "is required");
      }
      return null;
    }
    WriteConfig d = WriteConfig.builder(format).build();
    Template value = node.has("value") ? context.template(node, "value", null) : null;
    if (node.has("value") && value == null) {
      return null;
    }
    WriteConfig.Builder config =
        WriteConfig.builder(format)
            .value(value)
            .target(node.text("target", null))
            .output(node.enumValue("output", WriteConfig.Output.class, d.output()))
            .pretty(node.bool("pretty", d.pretty()))
            .header(node.bool("header", d.header()))
            .columns(node.texts("columns"))
            .separator(Characters.of(node, "separator", d.separator()))
            .quote(Characters.of(node, "quote", d.quote()))
            .rootElement(node.text("rootElement", d.rootElement()))
            .processingType(
                node.enumValue("processingType", ProcessingType.class, d.processingType()));
    WriteConfig built = context.problems().attempt(node.path(), config::build);
    return built == null ? null : new WriteProcessor(built);
  }

  @Override
  public Map<String, Object> defaults() {
    WriteConfig d = WriteConfig.builder(Format.JSON).build();
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("/properties/output", d.output());
    defaults.put("/properties/pretty", d.pretty());
    defaults.put("/properties/header", d.header());
    defaults.put("/properties/separator", String.valueOf(d.separator()));
    defaults.put("/properties/quote", String.valueOf(d.quote()));
    defaults.put("/properties/rootElement", d.rootElement());
    defaults.put("/properties/processingType", d.processingType());
    return defaults;
  }
}
