package io.sluice.db;

import io.sluice.core.Message;
import io.sluice.core.SluiceException;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.FlowContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.transaction.Transaction;
import io.sluice.db.internal.Binding;
import io.sluice.db.internal.SqlErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * What the database operations share: the data source they hold from start to stop, the binding of
 * their named parameters and the translation of the drivers' errors. They are {@code BLOCKING_IO}:
 * the {@code auto} strategy runs them on virtual threads under its adaptive limit. Inside a {@code
 * try} with a transaction on their data source they run on the transaction's connection, one at a
 * time, and leave it open ({@link #withConnection}).
 */
abstract class DbOperation implements Processor {

  private final String operation;
  private final DataSources dataSources;
  final DbStatement statement;
  private volatile DataSource pool;

  /**
   * An operation of {@code statement}, whose SQL must name exactly its parameters and {@code
   * outParameters} (a {@link io.sluice.core.ConfigurationException} otherwise).
   */
  DbOperation(
      String operation, DataSources dataSources, DbStatement statement, Set<String> outParameters) {
    this.operation = Objects.requireNonNull(operation, "operation");
    this.dataSources = Objects.requireNonNull(dataSources, "dataSources");
    this.statement = Objects.requireNonNull(statement, "statement");
    if (statement.parameters() == null && !(this instanceof DbBulkProcessor)) {
      throw new IllegalArgumentException(
          operation
              + " needs its parameters (an empty map for none): only db-bulk takes them from"
              + " its elements");
    }
    statement.checkNames(outParameters);
  }

  @Override
  public void start(FlowContext context) {
    pool = dataSources.acquire(statement.dataSource(), context.meterRegistry());
  }

  @Override
  public void stop() {
    if (pool != null) {
      pool = null;
      dataSources.release(statement.dataSource());
    }
  }

  @Override
  public ProcessingType processingType() {
    return ProcessingType.BLOCKING_IO;
  }

  @Override
  public String name() {
    return operation;
  }

  /** The statement this operation runs. */
  public DbStatement statement() {
    return statement;
  }

  /** A connection of the pool; a failure is {@code DB:CONNECTIVITY}. */
  final Connection connection() {
    DataSource open = pool;
    if (open == null) {
      throw new IllegalStateException(operation + " is not started");
    }
    try {
      return open.getConnection();
    } catch (SQLException e) {
      throw failure(e);
    }
  }

  /** Work done on a connection: {@code joined} when it is a transaction's, not to be ended. */
  @FunctionalInterface
  interface ConnectionWork<T> {
    T run(Connection connection, boolean joined) throws SQLException;
  }

  /**
   * Runs {@code work} on the connection of the transaction {@code message} is in on this data
   * source (waiting for the operation on it to end), else on a connection of the pool, closed
   * after; a failure is the operation's typed error.
   */
  final <T> T withConnection(Message message, ConnectionWork<T> work) {
    Transaction transaction = transactionOf(message);
    if (transaction == null) {
      try (Connection connection = connection()) {
        return work.run(connection, false);
      } catch (SQLException e) {
        throw failure(e);
      }
    }
    try {
      return transaction.join(Connection.class, connection -> work.run(connection, true));
    } catch (SQLException e) {
      throw failure(e);
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SluiceException(
          operation + " on data source '" + dataSourceName() + "' was interrupted", e);
    } catch (Exception e) {
      throw new SluiceException(operation + " on data source '" + dataSourceName() + "'", e);
    }
  }

  /** The transaction {@code message} is in on this operation's data source, or null. */
  final Transaction transactionOf(Message message) {
    return message.transaction(statement.dataSource());
  }

  /** The values of the statement's parameters on {@code message}, in the order of the ?s. */
  final List<Object> values(Message message) {
    List<String> positions = statement.sql().positions();
    List<Object> values = new ArrayList<>(positions.size());
    for (String name : positions) {
      Template template = statement.parameters().get(name);
      values.add(template == null ? null : template.evaluate(message));
    }
    return values;
  }

  /** Binds {@code values} to the statement's ?s. */
  final void bind(PreparedStatement prepared, List<Object> values) throws SQLException {
    Binding.bind(prepared, statement.sql().positions(), values, statement.dataSource(), operation);
  }

  /** {@code e} as the error a handler takes, naming the data source and the operation. */
  final DbException failure(SQLException e) {
    return SqlErrors.translate(
        e, statement.dataSource(), operation, dataSources.config(statement.dataSource()).secrets());
  }

  /** The message with {@code result} as its payload, or in the target variable. */
  final Message result(Message message, Object result) {
    return statement.target() == null
        ? message.withPayload(result)
        : message.withVariable(statement.target(), result);
  }

  final String operation() {
    return operation;
  }

  final String dataSourceName() {
    return statement.dataSource();
  }
}
