package io.sluice.db;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.transaction.DatabaseIdentity;
import io.sluice.core.transaction.Transaction;
import io.sluice.core.transaction.TransactionalResource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A data source as a {@link TransactionalResource}: a {@code try} with {@code transaction: <name>}
 * holds its pool while it runs and begins a {@link DbTransaction} on it per message. Its meters,
 * tagged {@code pool} like HikariCP's: {@code sluice.db.transactions} by {@code outcome}
 * (committed, rolled-back, commit-failed).
 */
final class DataSourceResource implements TransactionalResource {

  private final DataSources dataSources;
  private final String name;
  private final String database;
  private volatile DataSource pool;
  private volatile Outcomes outcomes;

  /** The counters of one data source's transactions. */
  record Outcomes(Counter committed, Counter rolledBack, Counter commitFailed) {
    static Outcomes on(MeterRegistry registry, String pool) {
      return new Outcomes(
          counter(registry, pool, "committed"),
          counter(registry, pool, "rolled-back"),
          counter(registry, pool, "commit-failed"));
    }

    private static Counter counter(MeterRegistry registry, String pool, String outcome) {
      return Counter.builder("sluice.db.transactions")
          .description("Transactions of try scopes on a data source, by how they ended")
          .tag("pool", pool)
          .tag("outcome", outcome)
          .register(registry);
    }
  }

  DataSourceResource(DataSources dataSources, DataSourceConfig config) {
    this.dataSources = dataSources;
    this.name = config.name();
    this.database = DatabaseIdentity.ofJdbcUrl(config.url());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String database() {
    return database;
  }

  @Override
  public void acquire(MeterRegistry registry) {
    pool = dataSources.acquire(name, registry);
    outcomes = Outcomes.on(registry, name); // the registry's own counters, when it has them
  }

  @Override
  public void release() {
    dataSources.release(name);
  }

  @Override
  public Transaction begin() {
    Outcomes counted = outcomes;
    if (counted == null) {
      throw new IllegalStateException("data source '" + name + "' is not acquired");
    }
    return new DbTransaction(this, counted);
  }

  /** A connection of the pool for a transaction; a failure is the caller's to translate. */
  Connection connection() throws SQLException {
    DataSource open = pool;
    if (open == null || !dataSources.isOpen(name)) {
      throw new IllegalStateException("data source '" + name + "' is closed");
    }
    return open.getConnection();
  }

  /** What its errors must never show (see {@link DataSourceConfig#secrets()}). */
  java.util.List<String> secrets() {
    return dataSources.config(name).secrets();
  }
}
