package io.sluice.db.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.spi.Processor;
import io.sluice.db.DbExecuteProcessor;
import io.sluice.db.DbStatement;
import java.sql.JDBCType;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code db-execute} processor. */
final class DbExecuteComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "db-execute";
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    Map<String, JDBCType> out = new LinkedHashMap<>();
    ConfigNode outNode = node.get("outParameters");
    if (outNode.isPresent() && outNode.node().isObject()) {
      outNode
          .node()
          .fieldNames()
          .forEachRemaining(
              name -> {
                JDBCType type = outNode.enumValue(name, JDBCType.class, null);
                if (type != null) {
                  out.put(name, type);
                }
              });
    }
    DbStatement statement = Statements.map(node, context, false);
    return Statements.processor(
        node, context, statement, (sources, st) -> new DbExecuteProcessor(sources, st, out));
  }
}
