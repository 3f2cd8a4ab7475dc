package io.sluice.db.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Processor;
import io.sluice.db.DataSources;
import io.sluice.db.DbStatement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/** Reads the keys every db processor has: dataSource, sql, parameters and target. */
final class Statements {

  private Statements() {}

  /**
   * The statement {@code node} describes, its data source recorded for the section to check; null
   * when broken. Without {@code parameters} the statement has none, unless {@code fromElements}
   * (db-bulk), where each element then gives them.
   */
  static DbStatement map(ConfigNode node, MappingContext context, boolean fromElements) {
    String dataSource = node.text("dataSource", null);
    String sql = node.text("sql", null);
    if (dataSource == null) {
      context.problems().add(node.get("dataSource").path(), null, "is required");
    } else {
      context
          .shared(DbReferences.class, DbReferences::new)
          .names
          .put(node.get("dataSource").path(), dataSource);
    }
    if (sql == null) {
      context.problems().add(node.get("sql").path(), null, "is required");
    }
    Map<String, Template> parameters = parameters(node.get("parameters"), context, fromElements);
    if (dataSource == null || sql == null || (parameters == null && !fromElements)) {
      return null;
    }
    return context
        .problems()
        .attempt(
            node.path(),
            () -> DbStatement.of(dataSource, sql, parameters, node.text("target", null)));
  }

  /**
   * The processor {@code make} builds on the file's data sources and {@code statement}, its
   * problems (the SQL naming other parameters than given, a bound) placed under {@code node}; null
   * when the statement is broken or the processor cannot be built.
   */
  static Processor processor(
      ConfigNode node,
      MappingContext context,
      DbStatement statement,
      BiFunction<DataSources, DbStatement, Processor> make) {
    if (statement == null) {
      return null;
    }
    DataSources sources = context.shared(DbReferences.class, DbReferences::new).dataSources;
    return context.problems().attempt(node.path(), () -> make.apply(sources, statement));
  }

  /**
   * Each parameter's value: a text is a template ({@code "#[payload.id]"}), a number or boolean a
   * constant of its type. Absent: none, or null for a bulk taking them from its elements.
   */
  static Map<String, Template> parameters(
      ConfigNode node, MappingContext context, boolean fromElements) {
    Map<String, Template> parameters = new LinkedHashMap<>();
    if (!node.isPresent()) {
      return fromElements ? null : parameters;
    }
    if (!node.node().isObject()) {
      return null; // the schema says so
    }
    for (Map.Entry<String, JsonNode> entry : node.node().properties()) {
      String path = node.get(entry.getKey()).path();
      JsonNode value = entry.getValue();
      String text =
          value.isNumber() || value.isBoolean() || value.isNull()
              ? "#[" + value.asText() + "]"
              : value.asText();
      Template template = context.problems().attempt("", () -> Template.parse(path, text));
      if (template == null) {
        return null;
      }
      parameters.put(entry.getKey(), template);
    }
    return parameters;
  }
}
