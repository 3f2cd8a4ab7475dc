package io.sluice.db.config;

import io.sluice.batch.BatchInput;
import io.sluice.batch.config.BatchInputComponent;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.core.expression.Template;
import io.sluice.db.QueryInput;
import io.sluice.db.QueryInputConfig;
import java.util.Map;

/** The batch input {@code query}: a job's records are the rows of a query, resumable by key. */
final class QueryInputComponent implements BatchInputComponent {

  @Override
  public String key() {
    return "query";
  }

  @Override
  public Map<String, Object> defaults() {
    return Map.of("/properties/fetchSize", QueryInputConfig.DEFAULT_FETCH_SIZE);
  }

  @Override
  public BatchInput map(ConfigNode node, MappingContext context) {
    DbReferences references = context.shared(DbReferences.class, DbReferences::new);
    String dataSource = node.text("dataSource", null);
    if (dataSource != null) {
      references.names.put(node.get("dataSource").path(), dataSource);
    }
    Map<String, Template> parameters =
        Statements.parameters(node.get("parameters"), context, false);
    QueryInputConfig.Builder builder =
        QueryInputConfig.builder(dataSource, node.text("sql", null))
            .keyColumn(node.text("keyColumn", null))
            .fetchSize(node.integer("fetchSize", QueryInputConfig.DEFAULT_FETCH_SIZE))
            .parameters(parameters == null ? Map.of() : parameters);
    QueryInputConfig config = context.problems().attempt(node.path(), builder::build);
    return config == null || parameters == null
        ? null
        : new QueryInput(references.dataSources, config);
  }
}
