package io.sluice.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ConfigProblems;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StorageFactory;
import io.sluice.core.store.StoreException;
import io.sluice.core.transaction.DatabaseIdentity;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;

/**
 * Opens the PostgreSQL storage: a HikariCP pool of {@link StorageConfig#poolSize()} connections
 * (one of them the writer's), the schema migrated under an advisory lock, and a dedicated
 * connection listening for other nodes' enqueues. An unreachable server fails the open within the
 * connect timeout, naming the URL (password masked), the user and what went wrong.
 */
public final class PostgresStorageFactory implements StorageFactory {

  /**
   * How long the server lets a session of this storage sit idle inside a transaction before ending
   * it and releasing its locks.
   */
  public static final Duration IDLE_IN_TRANSACTION = Duration.ofSeconds(5);

  /** A factory; found by {@link java.util.ServiceLoader}. */
  public PostgresStorageFactory() {}

  @Override
  public String type() {
    return StorageConfig.POSTGRESQL;
  }

  @Override
  public void check(StorageConfig config, ConfigProblems problems) {
    JdbcStoreRules.check(config, problems);
  }

  @Override
  public Storage open(
      StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock) {
    String who =
        config.maskedUrl()
            + " as "
            + config.user()
            + (config.sslMode() == null ? "" : " with sslmode=" + config.sslMode());
    JdbcFailures failures = new JdbcFailures("postgresql " + who, config.password());
    Duration timeout = config.connectTimeout();
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(poolConfig(config));
    } catch (RuntimeException e) {
      throw new StoreException(
          failures.scrub(
              "Could not connect to "
                  + who
                  + " within "
                  + seconds(timeout)
                  + ": "
                  + JdbcFailures.rootMessage(e)
                  + ". Check that PostgreSQL runs there and accepts this user"
                  + (config.sslMode() == null
                      ? ""
                      : ", and that its TLS (ssl = on, its certificate) suits sslmode "
                          + config.sslMode())),
          e);
    }
    int version;
    try (Connection connection = pool.getConnection()) {
      version =
          Migrations.migrate(
              connection, Dialect.POSTGRESQL, clock, "The PostgreSQL database " + who);
    } catch (SQLException | RuntimeException e) {
      pool.close();
      throw failures.translate("check and migrate the schema", e);
    }
    String description =
        "postgresql " + who + " (pool " + config.poolSize() + ", schema v" + version + ")";
    Properties listen = connectionProperties(config);
    return new JdbcStorage(
        Dialect.POSTGRESQL,
        description,
        DatabaseIdentity.ofJdbcUrl(config.url()),
        failures,
        pool::getConnection,
        pool,
        signals -> new PostgresListener(config.url(), listen, signals, failures),
        values,
        registry,
        clock,
        null,
        writers(config.poolSize()));
  }

  /**
   * How many of the pool's connections write, each committing on its own: half the pool, at most
   * two, at least one. On 2 cores a second writer raised the 1 KB queue's throughput in most paired
   * runs (by up to 74%), and four did worse than two.
   */
  static int writers(int poolSize) {
    return Math.max(1, Math.min(2, poolSize / 2));
  }

  private static HikariConfig poolConfig(StorageConfig config) {
    HikariConfig pool = new HikariConfig();
    pool.setPoolName("sluice-postgresql");
    pool.setJdbcUrl(config.url());
    pool.setUsername(config.user());
    pool.setPassword(config.password());
    pool.setMaximumPoolSize(config.poolSize());
    pool.setMinimumIdle(Math.min(2, config.poolSize()));
    // HikariCP silently raises a timeout under 250 ms to 30 s; never ask it for less.
    long millis = Math.max(250, config.connectTimeout().toMillis());
    pool.setConnectionTimeout(millis);
    pool.setInitializationFailTimeout(millis);
    connectionProperties(config).forEach((k, v) -> pool.addDataSourceProperty((String) k, v));
    pool.getDataSourceProperties().remove("user");
    pool.getDataSourceProperties().remove("password");
    return pool;
  }

  /** What every connection is opened with: credentials and the driver's own timeouts. */
  private static Properties connectionProperties(StorageConfig config) {
    Properties properties = new Properties();
    if (config.user() != null) {
      properties.setProperty("user", config.user());
    }
    if (config.password() != null) {
      properties.setProperty("password", config.password());
    }
    String seconds = String.valueOf(Math.max(1, config.connectTimeout().toSeconds()));
    properties.setProperty("connectTimeout", seconds);
    properties.setProperty("loginTimeout", seconds);
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("ApplicationName", "sluice");
    // TLS as configured; unset, the driver's own default (prefer) or the URL's parameters.
    setIfGiven(properties, "sslmode", config.sslMode());
    setIfGiven(properties, "sslrootcert", config.sslRootCert());
    setIfGiven(properties, "sslcert", config.sslCert());
    setIfGiven(properties, "sslkey", config.sslKey());
    // A process frozen (paused, swapped out, stopped) inside a transaction would keep its row
    // locks for as long as it stays frozen, and other nodes skip or wait for those rows: a job
    // executor node's claimed jobs could not be reclaimed when its lease lapses. The server ends
    // such a session after 5 s idle inside a transaction, less than the jobs' default lease (6 s).
    properties.setProperty(
        "options", "-c idle_in_transaction_session_timeout=" + IDLE_IN_TRANSACTION.toMillis());
    return properties;
  }

  private static void setIfGiven(Properties properties, String name, Object value) {
    if (value != null) {
      properties.setProperty(name, value.toString());
    }
  }

  private static String seconds(Duration timeout) {
    long millis = timeout.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
