package io.sluice.db;

import io.sluice.core.ConfigProblems;
import io.sluice.core.expression.Template;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What every database operation is given: the data source it runs on, its SQL with named parameters
 * ({@code :id}), the value of each parameter (a template evaluated on each message, so {@code
 * "#[payload.id]"} gives the payload's id with its type) and where its result goes.
 *
 * @param dataSource the name of the data source
 * @param sql the statement and its parameters
 * @param parameters each parameter's value by name; null for {@code db-bulk} taking them from each
 *     element, a map, by name
 * @param target the variable that receives the result; null for the payload
 */
public record DbStatement(
    String dataSource, NamedSql sql, Map<String, Template> parameters, String target) {

  /** Keeps the parameters in order and unmodifiable. */
  public DbStatement {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(sql, "sql");
    if (parameters != null) {
      parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }
  }

  /**
   * A statement of {@code sql} on {@code dataSource}; the operation it is given to checks that the
   * SQL names exactly the parameters given.
   */
  public static DbStatement of(
      String dataSource, String sql, Map<String, Template> parameters, String target) {
    return new DbStatement(dataSource, NamedSql.parse(sql), parameters, target);
  }

  /**
   * Checks that the SQL names exactly the parameters given and {@code others} (a procedure's out
   * parameters); with no parameters given (a bulk's elements give them) there is nothing to check.
   *
   * @throws io.sluice.core.ConfigurationException naming each parameter the SQL names and neither
   *     gives ({@code sql}), and each given that the SQL does not name ({@code parameters.<name>})
   */
  void checkNames(Set<String> others) {
    if (parameters == null) {
      return;
    }
    ConfigProblems problems = new ConfigProblems();
    Set<String> named = sql.names();
    for (String name : named) {
      problems.check(
          parameters.containsKey(name) || others.contains(name),
          "sql",
          ":" + name,
          "names the parameter '" + name + "', which parameters does not give");
    }
    for (String given : parameters.keySet()) {
      problems.check(
          named.contains(given),
          "parameters." + given,
          given,
          "is not a parameter of sql, which names "
              + (named.isEmpty() ? "none" : String.join(", ", named)));
    }
    problems.throwIfAny();
  }
}
