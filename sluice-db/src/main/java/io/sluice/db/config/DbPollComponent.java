package io.sluice.db.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.SourceComponent;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Source;
import io.sluice.db.DbPollConfig;
import io.sluice.db.DbPollSource;
import io.sluice.db.internal.Watermarks;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code db-poll} source. */
final class DbPollComponent implements SourceComponent {

  @Override
  public String key() {
    return "db-poll";
  }

  @Override
  public Map<String, Object> defaults() {
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("/properties/frequency", DbPollConfig.DEFAULT_FREQUENCY);
    defaults.put("/properties/maxRows", DbPollConfig.DEFAULT_MAX_ROWS);
    defaults.put("/properties/fetchSize", DbPollConfig.DEFAULT_FETCH_SIZE);
    defaults.put("/properties/perRow", true);
    defaults.put("/properties/pageSize", DbPollConfig.DEFAULT_PAGE_SIZE);
    defaults.put("/properties/maxDeliveries", DbPollConfig.DEFAULT_MAX_DELIVERIES);
    return defaults;
  }

  @Override
  public Source map(ConfigNode node, MappingContext context) {
    String dataSource = node.text("dataSource", null);
    String sql = node.text("sql", null);
    if (dataSource != null) {
      context
          .shared(DbReferences.class, DbReferences::new)
          .names
          .put(node.get("dataSource").path(), dataSource);
    }
    Map<String, Template> parameters =
        Statements.parameters(node.get("parameters"), context, false);
    boolean perRow = node.bool("perRow", true);
    if (perRow && node.has("pageSize")) {
      context
          .problems()
          .add(
              node.get("pageSize").path(),
              node.integer("pageSize", 0),
              "applies only with perRow: false (a page of rows per message)");
    }
    DbPollConfig.Builder builder =
        DbPollConfig.builder(dataSource, sql)
            .parameters(parameters == null ? Map.of() : parameters)
            .frequency(node.duration("frequency", DbPollConfig.DEFAULT_FREQUENCY))
            .watermarkColumn(node.text("watermarkColumn", null))
            .initialWatermark(initialWatermark(node.get("initialWatermark")))
            .maxRows(node.integer("maxRows", DbPollConfig.DEFAULT_MAX_ROWS))
            .fetchSize(node.integer("fetchSize", DbPollConfig.DEFAULT_FETCH_SIZE))
            .perRow(perRow)
            .pageSize(node.integer("pageSize", DbPollConfig.DEFAULT_PAGE_SIZE))
            .maxDeliveries(node.integer("maxDeliveries", DbPollConfig.DEFAULT_MAX_DELIVERIES));
    DbPollConfig config = context.problems().attempt(node.path(), builder::build);
    if (config == null || parameters == null) {
      return null;
    }
    DbReferences references = context.shared(DbReferences.class, DbReferences::new);
    return new DbPollSource(references.dataSources, config);
  }

  /** A number as it is; a text that reads as a date or timestamp as one. */
  private static Object initialWatermark(ConfigNode node) {
    if (!node.isPresent()) {
      return null;
    }
    JsonNode value = node.node();
    if (value.isIntegralNumber()) {
      return value.canConvertToLong() ? (Object) value.longValue() : value.bigIntegerValue();
    }
    if (value.isNumber()) {
      return value.decimalValue();
    }
    return value.isTextual() ? Watermarks.fromConfig(value.textValue()) : null;
  }
}
