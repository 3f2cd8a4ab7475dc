package io.sluice.formats.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.formats.TransformProcessor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code transform} processor. */
final class TransformComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "transform";
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    ConfigNode template = node.get("template");
    if (!template.isPresent()) {
      context.problems().add(template.path(), null, "is required");
      return null;
    }
    Object tree = plain(template.node());
    String target = node.text("target", null);
    ProcessingType type =
        node.enumValue(
            "processingType", ProcessingType.class, TransformProcessor.DEFAULT_PROCESSING_TYPE);
    // Problems carry their whole path (…transform.template.order.id), so the line is found.
    return context
        .problems()
        .attempt(
            node.path(),
            p -> p.equals("target") ? node.get("target").path() : p,
            () -> TransformProcessor.of(template.path(), tree, target, type));
  }

  /** The YAML node as plain Java values, keeping numbers and booleans as they are written. */
  private static Object plain(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.properties().forEach(e -> map.put(e.getKey(), plain(e.getValue())));
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(plain(item)));
      return list;
    }
    if (node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isNumber()) {
      return node.numberValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.asText();
  }

  @Override
  public Map<String, Object> defaults() {
    return Map.of("/properties/processingType", TransformProcessor.DEFAULT_PROCESSING_TYPE);
  }
}
