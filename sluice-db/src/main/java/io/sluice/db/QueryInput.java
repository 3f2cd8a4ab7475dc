package io.sluice.db;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;
import io.sluice.batch.BatchRecord;
import io.sluice.core.Message;
import io.sluice.core.expression.Template;
import io.sluice.db.internal.Binding;
import io.sluice.db.internal.Rows;
import io.sluice.db.internal.SqlErrors;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A batch job's {@code query} input: the rows of a query, read {@code fetchSize} at a time on a
 * connection of its data source's pool (on PostgreSQL through a cursor, outside autocommit; on
 * MariaDB as a streamed result; SQLite reads row by row), each a record whose payload is a map of
 * column label to value and whose position is its key.
 *
 * <p>The position the batch module keeps with each block it stores is the key of the block's last
 * row, so a job killed and resumed reads on after the last key stored and loads each row once. The
 * keys must therefore be whole numbers, at least 1 (0 is where a job starts), strictly increasing
 * in the query's order (ORDER BY the key column); a row that breaks this fails the input with a
 * {@link BatchInputException} saying which key, rather than load a row twice or skip one. When the
 * SQL names {@code :after} ({@code WHERE id > :after ORDER BY id}) it is bound to that key, so the
 * database skips what was loaded; otherwise a resumed job reads the query again and skips the rows
 * up to it.
 */
public final class QueryInput implements BatchInput {

  private static final String OPERATION = "query input";

  private final DataSources dataSources;
  private final QueryInputConfig config;

  /** The input {@code config} describes, on a data source of {@code dataSources}. */
  public QueryInput(DataSources dataSources, QueryInputConfig config) {
    this.dataSources = Objects.requireNonNull(dataSources, "dataSources");
    this.config = Objects.requireNonNull(config, "config");
  }

  /** Its settings. */
  public QueryInputConfig config() {
    return config;
  }

  @Override
  public String describe() {
    return "query on data source '" + config.dataSource() + "' keyed by " + config.keyColumn();
  }

  @Override
  public String positionName() {
    return "key";
  }

  @Override
  public Reader open(long position) {
    if (position < 0) {
      throw new IllegalArgumentException("a query input's position is a key, at least 0");
    }
    DataSource pool;
    try {
      pool = dataSources.acquire(config.dataSource(), null);
    } catch (IllegalArgumentException e) {
      throw new BatchInputException(e.getMessage(), e);
    }
    return new QueryReader(position, pool); // it gives the pool back when it closes, or fails
  }

  private BatchInputException failure(SQLException e) {
    String name = config.dataSource();
    DbException error = SqlErrors.translate(e, name, OPERATION, dataSources.config(name).secrets());
    return new BatchInputException(error.getMessage(), error);
  }

  private BatchInputException badKey(Object key, long last, String rule) {
    return new BatchInputException(
        "query input on data source '"
            + config.dataSource()
            + "': keyColumn '"
            + config.keyColumn()
            + "' holds "
            + (key == null ? "null" : key + " (a " + key.getClass().getName() + ")")
            + (last > 0 ? " in the row after key " + last : " in the first row")
            + ", which "
            + rule
            + "; the input keeps the last key loaded to resume after it, so each row's key must"
            + " be a whole number, at least 1, strictly increasing in the query's order (ORDER BY"
            + " "
            + config.keyColumn()
            + " on a unique integer column)",
        null);
  }

  /** Reads the rows after key {@code from} on a connection of its own. */
  private final class QueryReader implements Reader {

    private final long from;
    private Connection connection;
    private PreparedStatement statement;
    private ResultSet results;
    private Rows rows;
    private String keyLabel;
    private long last;
    private boolean closed;

    QueryReader(long from, DataSource pool) {
      this.from = from;
      this.last = from;
      try {
        connection = pool.getConnection();
        // PostgreSQL reads by cursor (fetchSize at a time) only outside autocommit.
        connection.setAutoCommit(false);
        statement =
            connection.prepareStatement(
                config.statement().sql().jdbcSql(),
                ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY);
        statement.setFetchSize(config.fetchSize());
        List<String> names = config.statement().sql().positions();
        List<Object> values = new ArrayList<>(names.size());
        Message message = Message.of(from);
        for (String name : names) {
          Template template = config.statement().parameters().get(name);
          values.add(name.equals(QueryInputConfig.AFTER) ? from : template.evaluate(message));
        }
        Binding.bind(statement, names, values, config.dataSource(), OPERATION);
        results = statement.executeQuery();
        rows = new Rows(results);
      } catch (SQLException e) {
        close();
        throw failure(e);
      } catch (DbException e) {
        close();
        throw new BatchInputException(e.getMessage(), e);
      } catch (RuntimeException e) {
        close();
        throw e;
      }
    }

    @Override
    public BatchRecord next() {
      if (closed) {
        return null;
      }
      try {
        while (results.next()) {
          Map<String, Object> row = rows.row(results);
          Object value = row.get(keyLabel(row));
          long key = whole(value);
          if (key <= from && from > 0) {
            continue; // loaded before the job was resumed: the query was read again from the start
          }
          if (key < 1) {
            throw badKey(value, last, "is less than 1");
          }
          if (key <= last) {
            throw badKey(value, last, "is not greater than the key before it");
          }
          last = key;
          return BatchRecord.of(key, row);
        }
        close();
        return null;
      } catch (SQLException e) {
        close();
        throw failure(e);
      } catch (RuntimeException e) {
        close();
        throw e;
      }
    }

    /** The label of the key column in the rows, found once, whatever its case. */
    private String keyLabel(Map<String, Object> row) {
      if (keyLabel == null) {
        keyLabel =
            row.keySet().stream()
                .filter(label -> label.equals(config.keyColumn()))
                .findFirst()
                .or(
                    () ->
                        row.keySet().stream()
                            .filter(label -> label.equalsIgnoreCase(config.keyColumn()))
                            .findFirst())
                .orElseThrow(
                    () ->
                        new BatchInputException(
                            "query input on data source '"
                                + config.dataSource()
                                + "': its rows have no column '"
                                + config.keyColumn()
                                + "' (keyColumn); their columns: "
                                + row.keySet(),
                            null));
      }
      return keyLabel;
    }

    /** {@code value} as a whole number; else the input fails, naming it. */
    private long whole(Object value) {
      try {
        return switch (value) {
          case Long l -> l;
          case Integer i -> i;
          case Short s -> s;
          case Byte b -> b;
          case BigInteger big -> big.longValueExact();
          case BigDecimal decimal -> decimal.longValueExact();
          case null, default -> throw badKey(value, last, "is not a whole number");
        };
      } catch (ArithmeticException e) {
        throw badKey(value, last, "is not a whole number within a long");
      }
    }

    @Override
    public long position() {
      return last;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try (Connection c = connection;
          PreparedStatement s = statement;
          ResultSet r = results) {
        if (c != null && !c.getAutoCommit()) {
          c.rollback(); // a read: nothing to keep; ends the cursor's transaction
          c.setAutoCommit(true);
        }
      } catch (SQLException ignored) {
        // The pool checks the connection before it hands it out again.
      } finally {
        dataSources.release(config.dataSource());
      }
    }
  }
}
