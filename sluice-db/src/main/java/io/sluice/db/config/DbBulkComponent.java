package io.sluice.db.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.expression.Expression;
import io.sluice.core.spi.Processor;
import io.sluice.db.DbBulkProcessor;
import io.sluice.db.DbStatement;
import java.util.Map;

/** The {@code db-bulk} processor. */
final class DbBulkComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "db-bulk";
  }

  @Override
  public Map<String, Object> defaults() {
    return Map.of("/properties/batchSize", DbBulkProcessor.DEFAULT_BATCH_SIZE);
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    DbStatement statement = Statements.map(node, context, true);
    int batchSize = node.integer("batchSize", DbBulkProcessor.DEFAULT_BATCH_SIZE);
    String collectionText = node.text("collection", null);
    Expression collection =
        collectionText == null
            ? null
            : context
                .problems()
                .attempt(
                    "", () -> Expression.compile(node.get("collection").path(), collectionText));
    if (collectionText != null && collection == null) {
      return null;
    }
    return Statements.processor(
        node,
        context,
        statement,
        (sources, st) -> new DbBulkProcessor(sources, st, collection, batchSize));
  }
}
