package io.sluice.db.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.Processor;
import io.sluice.db.DbSelectProcessor;
import io.sluice.db.DbStatement;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code db-select} processor. */
final class DbSelectComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "db-select";
  }

  @Override
  public Map<String, Object> defaults() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("/properties/streaming", false);
    defaults.put("/properties/fetchSize", DbSelectProcessor.DEFAULT_FETCH_SIZE);
    defaults.put("/properties/maxRows", 0);
    return defaults;
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    DbStatement statement = Statements.map(node, context, false);
    boolean streaming = node.bool("streaming", false);
    int fetchSize = node.integer("fetchSize", DbSelectProcessor.DEFAULT_FETCH_SIZE);
    int maxRows = node.integer("maxRows", 0);
    return Statements.processor(
        node,
        context,
        statement,
        (sources, st) -> new DbSelectProcessor(sources, st, streaming, fetchSize, maxRows));
  }
}
