package io.sluice.db;

import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.expression.Template;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The settings of a batch job's {@code query} input: the query, the data source it runs on, the key
 * column that orders its rows and that a resumed job restarts after, and the rows read per round
 * trip. Built and checked by {@link #builder}.
 *
 * @param statement the query and its parameters ({@code :after} among them when the SQL names it)
 * @param keyColumn the column (label) whose value is each row's key: a whole number, at least 1,
 *     strictly increasing in the query's order
 * @param fetchSize the rows read per round trip
 */
public record QueryInputConfig(DbStatement statement, String keyColumn, int fetchSize) {

  /** The parameter bound to the last key loaded (0 before the first row), when the SQL names it. */
  public static final String AFTER = "after";

  /** The rows read per round trip unless {@code fetchSize} says. */
  public static final int DEFAULT_FETCH_SIZE = 1000;

  /** The upper bound of {@code fetchSize}. */
  public static final int MAX_FETCH_SIZE = 100_000;

  /** Checks the parts are there. */
  public QueryInputConfig {
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(keyColumn, "keyColumn");
  }

  /** The data source's name. */
  public String dataSource() {
    return statement.dataSource();
  }

  /** Whether the SQL names {@code :after}, so that the database skips the rows loaded already. */
  public boolean bindsAfter() {
    return statement.sql().names().contains(AFTER);
  }

  /** A query input of {@code sql} on data source {@code dataSource}. */
  public static Builder builder(String dataSource, String sql) {
    return new Builder(dataSource, sql);
  }

  /** Builds a {@link QueryInputConfig}; {@link #build} checks every rule at once. */
  public static final class Builder {
    private final String dataSource;
    private final String sql;
    private String keyColumn;
    private int fetchSize = DEFAULT_FETCH_SIZE;
    private Map<String, Template> parameters = Map.of();

    private Builder(String dataSource, String sql) {
      this.dataSource = dataSource;
      this.sql = sql;
    }

    /** The column whose value is each row's key (required). */
    public Builder keyColumn(String value) {
      this.keyColumn = value;
      return this;
    }

    /** The rows read per round trip, from 1 to {@value #MAX_FETCH_SIZE}. */
    public Builder fetchSize(int value) {
      this.fetchSize = value;
      return this;
    }

    /** The values of the query's named parameters but {@code :after}, templates by name. */
    public Builder parameters(Map<String, Template> value) {
      this.parameters = Objects.requireNonNull(value, "parameters");
      return this;
    }

    /** The configuration, or a {@link ConfigurationException} naming every problem. */
    public QueryInputConfig build() {
      ConfigProblems problems = new ConfigProblems();
      problems.check(
          dataSource != null && !dataSource.isBlank(), "dataSource", null, "is required");
      problems.check(sql != null && !sql.isBlank(), "sql", null, "is required");
      boolean keyed =
          problems.check(
              keyColumn != null && !keyColumn.isBlank(),
              "keyColumn",
              null,
              "is required: the column whose value is each row's key (a whole number, strictly"
                  + " increasing in the query's order), after which a resumed job reads on");
      if (problems.check(fetchSize >= 1, "fetchSize", fetchSize, "must be at least 1")) {
        problems.atMost("fetchSize", fetchSize, MAX_FETCH_SIZE);
      }
      problems.check(
          !parameters.containsKey(AFTER),
          "parameters." + AFTER,
          AFTER,
          "is given by the input (the last key loaded, 0 at first); remove it");
      if (keyed && sql != null && !sql.isBlank()) {
        problems.check(
            ordersBy(sql, keyColumn),
            "sql",
            sql,
            "must order its rows by keyColumn '"
                + keyColumn
                + "', ascending (ORDER BY "
                + keyColumn
                + "): a resumed job reads on after the last key loaded");
      }
      DbStatement statement = null;
      if (problems.isEmpty()) {
        Map<String, Template> all = new LinkedHashMap<>(parameters);
        NamedSql named = NamedSql.parse(sql);
        if (named.names().contains(AFTER)) {
          all.put(AFTER, Template.parse("parameters." + AFTER, "#[payload]"));
        }
        statement = new DbStatement(dataSource, named, all, null);
        try {
          statement.checkNames(Set.of());
        } catch (ConfigurationException e) {
          e.problems().forEach(problems::add);
        }
      }
      problems.throwIfAny();
      return new QueryInputConfig(statement, keyColumn, fetchSize);
    }

    /**
     * Whether {@code sql} has {@code ORDER BY key} (the key first, maybe qualified or quoted, not
     * descending).
     */
    static boolean ordersBy(String sql, String key) {
      Pattern order =
          Pattern.compile(
              "(?is)\\border\\s+by\\s+(?:[\\w\"`\\[\\]]+\\.)?[\"`\\[]?"
                  + Pattern.quote(key)
                  + "[\"`\\]]?(?![\\w.])(?!\\s+desc\\b)");
      return order.matcher(sql).find();
    }
  }
}
