package io.sluice.db;

import io.sluice.core.ConfigProblems;
import io.sluice.core.ConfigurationException;
import io.sluice.core.expression.Template;
import io.sluice.db.internal.Watermarks;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link DbPollSource} polls: a query on a data source, run every {@code frequency}, whose
 * rows are handed to the flow one per message (or a page of {@code pageSize} per message), and the
 * watermark column whose last value handed over is bound to the query's {@code :watermark} at the
 * next poll. Immutable; built and checked by {@link #builder(String, String)}.
 *
 * @param statement the query; its {@code :watermark}, when it names one, is bound to the watermark
 * @param frequency how long after a poll ends the next one starts (at once after a full poll)
 * @param watermarkColumn the column whose value is the watermark, or null for none
 * @param initialWatermark the watermark of the first poll, when the store holds none; or null
 * @param maxRows the most rows one poll reads
 * @param fetchSize the rows read per round trip; 0: the driver's own
 * @param perRow whether each row is a message; otherwise each page of {@code pageSize} rows is
 * @param pageSize the rows of a message when not {@code perRow}
 * @param maxDeliveries how many times the first failing row (or page) is handed over before the
 *     watermark moves past it; 0: no bound, the watermark waits for it
 */
public record DbPollConfig(
    DbStatement statement,
    Duration frequency,
    String watermarkColumn,
    Object initialWatermark,
    int maxRows,
    int fetchSize,
    boolean perRow,
    int pageSize,
    int maxDeliveries) {

  /** The parameter the watermark is bound to. */
  public static final String WATERMARK = "watermark";

  /** How long after a poll the next one starts unless {@code frequency} says. */
  public static final Duration DEFAULT_FREQUENCY = Duration.ofSeconds(1);

  /** The most rows a poll reads unless {@code maxRows} says. */
  public static final int DEFAULT_MAX_ROWS = 1000;

  /** The rows read per round trip unless {@code fetchSize} says. */
  public static final int DEFAULT_FETCH_SIZE = 1000;

  /** The rows of a page unless {@code pageSize} says. */
  public static final int DEFAULT_PAGE_SIZE = 100;

  /** The deliveries of a row that keeps failing unless {@code maxDeliveries} says. */
  public static final int DEFAULT_MAX_DELIVERIES = 5;

  /** The upper bound of {@code maxDeliveries}, as a persistent vm-listener's. */
  public static final int MAX_MAX_DELIVERIES = 10_000;

  /**
   * The upper bound of {@code maxRows} and {@code pageSize}: one poll's rows are held in memory.
   */
  public static final int MAX_POLL_ROWS = 1_000_000;

  /** Checks what a builder cannot get wrong. */
  public DbPollConfig {
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(frequency, "frequency");
  }

  /** A builder of a poll of {@code sql} on data source {@code dataSource}, with the defaults. */
  public static Builder builder(String dataSource, String sql) {
    return new Builder(dataSource, sql);
  }

  /** The data source's name. */
  public String dataSource() {
    return statement.dataSource();
  }

  /** Builds a {@link DbPollConfig}; {@link #build()} checks every rule at once. */
  public static final class Builder {
    private final String dataSource;
    private final String sql;
    private Map<String, Template> parameters = Map.of();
    private Duration frequency = DEFAULT_FREQUENCY;
    private String watermarkColumn;
    private Object initialWatermark;
    private int maxRows = DEFAULT_MAX_ROWS;
    private int fetchSize = DEFAULT_FETCH_SIZE;
    private boolean perRow = true;
    private int pageSize = DEFAULT_PAGE_SIZE;
    private int maxDeliveries = DEFAULT_MAX_DELIVERIES;

    private Builder(String dataSource, String sql) {
      this.dataSource = dataSource;
      this.sql = sql;
    }

    /** The values of the query's other named parameters, evaluated at each poll. */
    public Builder parameters(Map<String, Template> value) {
      this.parameters = value;
      return this;
    }

    /** How long after a poll the next one starts: positive, at most 24h. */
    public Builder frequency(Duration value) {
      this.frequency = value;
      return this;
    }

    /** The column whose value is the watermark; required when the query names it. */
    public Builder watermarkColumn(String value) {
      this.watermarkColumn = value;
      return this;
    }

    /**
     * The watermark of the first poll (a number, text, date or timestamp), until one is stored;
     * required with a {@code watermarkColumn}.
     */
    public Builder initialWatermark(Object value) {
      this.initialWatermark = value;
      return this;
    }

    /** The most rows a poll reads, from 1 to {@value #MAX_POLL_ROWS}. */
    public Builder maxRows(int value) {
      this.maxRows = value;
      return this;
    }

    /** The rows per round trip, from 0 (the driver's own); no more than {@code maxRows} are. */
    public Builder fetchSize(int value) {
      this.fetchSize = value;
      return this;
    }

    /** Whether each row is a message (true) or each page of {@code pageSize} rows. */
    public Builder perRow(boolean value) {
      this.perRow = value;
      return this;
    }

    /** The rows of a page, from 1 to {@value #MAX_POLL_ROWS}. */
    public Builder pageSize(int value) {
      this.pageSize = value;
      return this;
    }

    /** Deliveries of a failing row before the watermark moves past it; 0: no bound. */
    public Builder maxDeliveries(int value) {
      this.maxDeliveries = value;
      return this;
    }

    /** The configuration, or a {@link ConfigurationException} naming every problem. */
    public DbPollConfig build() {
      ConfigProblems problems = new ConfigProblems();
      problems.check(
          dataSource != null && !dataSource.isBlank(), "dataSource", null, "is required");
      problems.check(sql != null && !sql.isBlank(), "sql", null, "is required");
      if (problems.check(
          frequency != null && frequency.isPositive(),
          "frequency",
          frequency,
          "must be a positive duration")) {
        problems.atMost("frequency", frequency, ConfigProblems.MAX_DURATION);
      }
      if (problems.check(maxRows >= 1, "maxRows", maxRows, "must be at least 1")) {
        problems.atMost("maxRows", maxRows, MAX_POLL_ROWS);
      }
      if (problems.check(fetchSize >= 0, "fetchSize", fetchSize, "must be at least 0")) {
        problems.atMost("fetchSize", fetchSize, MAX_POLL_ROWS);
      }
      if (problems.check(pageSize >= 1, "pageSize", pageSize, "must be at least 1")) {
        problems.atMost("pageSize", pageSize, MAX_POLL_ROWS);
      }
      if (problems.check(
          maxDeliveries >= 0, "maxDeliveries", maxDeliveries, "must be at least 0 (0: no bound)")) {
        problems.atMost("maxDeliveries", maxDeliveries, MAX_MAX_DELIVERIES);
      }
      problems.check(
          initialWatermark == null || Watermarks.keepable(initialWatermark),
          "initialWatermark",
          initialWatermark,
          "must be a number, a text, a date or a timestamp");
      DbStatement statement = null;
      if (dataSource != null && sql != null && parameters != null) {
        statement = statement(problems);
      }
      problems.throwIfAny();
      return new DbPollConfig(
          statement,
          frequency,
          watermarkColumn,
          initialWatermark == null ? null : Watermarks.normal(initialWatermark),
          maxRows,
          fetchSize,
          perRow,
          pageSize,
          maxDeliveries);
    }

    /** The query with the watermark among its parameters, or null after noting why not. */
    private DbStatement statement(ConfigProblems problems) {
      NamedSql named = NamedSql.parse(sql);
      boolean namesWatermark = named.names().contains(WATERMARK);
      boolean ok =
          problems.check(
              !parameters.containsKey(WATERMARK),
              "parameters." + WATERMARK,
              WATERMARK,
              "is given by the poll (the last watermark handed over); remove it");
      if (namesWatermark) {
        ok &=
            problems.check(
                watermarkColumn != null && !watermarkColumn.isBlank(),
                "watermarkColumn",
                watermarkColumn,
                "is required: sql names :watermark, which is bound to the last value of this"
                    + " column handed over");
        ok &=
            problems.check(
                initialWatermark != null,
                "initialWatermark",
                null,
                "is required: sql names :watermark, and the first poll binds this to it (0,"
                    + " '1970-01-01T00:00:00')");
      } else {
        ok &=
            problems.check(
                watermarkColumn == null,
                "sql",
                sql,
                "does not name :watermark, which watermarkColumn needs: the poll binds the last"
                    + " watermark to it (WHERE id > :watermark ORDER BY id)");
        ok &=
            problems.check(
                initialWatermark == null,
                "initialWatermark",
                String.valueOf(initialWatermark),
                "applies only when sql names :watermark (the first poll binds it there); remove"
                    + " it, or name :watermark in sql");
      }
      if (!ok) {
        return null;
      }
      Map<String, Template> all = new LinkedHashMap<>(parameters);
      if (namesWatermark) {
        all.put(WATERMARK, Template.parse("parameters." + WATERMARK, "#[attributes.watermark]"));
      }
      DbStatement statement = new DbStatement(dataSource, named, all, null);
      try {
        statement.checkNames(Set.of());
        return statement;
      } catch (ConfigurationException e) {
        e.problems().forEach(problems::add);
        return null;
      }
    }
  }
}
