package io.sluice.db.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.SluiceException;
import io.sluice.db.DataSourceConfig;
import io.sluice.db.DbException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One data source's HikariCP pool, opened by its first user and closed after its last. A pool opens
 * without connecting ({@code initializationFailTimeout} -1): an application whose database is away
 * starts, and its calls fail with {@code DB:CONNECTIVITY} until the database is back; unless the
 * data source has {@code initSql}, which runs before the pool is handed to anyone, so a database
 * away then fails the start.
 */
public final class Pool {

  private static final Logger LOG = LoggerFactory.getLogger(Pool.class);

  private final DataSourceConfig config;
  private final ReentrantLock lock = new ReentrantLock();
  private HikariDataSource open;
  private int users;

  /** The pool of {@code config}, not open yet. */
  public Pool(DataSourceConfig config) {
    this.config = config;
  }

  /** Its settings. */
  public DataSourceConfig config() {
    return config;
  }

  /** The pool, opened when nobody holds it, its meters on {@code registry}. */
  public DataSource acquire(MeterRegistry registry) {
    lock.lock();
    try {
      if (open == null) {
        HikariDataSource opened = open(registry);
        try {
          runInitSql(opened);
        } catch (RuntimeException e) {
          opened.close();
          throw e;
        }
        open = opened;
        LOG.info("{} opened", config);
      }
      users++;
      return open;
    } finally {
      lock.unlock();
    }
  }

  /** Gives the pool back; the last user closes it. */
  public void release() {
    lock.lock();
    try {
      if (users == 0) {
        return;
      }
      if (--users == 0) {
        open.close();
        open = null;
        LOG.info("data source '{}' closed", config.name());
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the pool is open. */
  public boolean isOpen() {
    lock.lock();
    try {
      return open != null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A new pool. HikariCP names the URL, password and all, in some of its errors: what it throws is
   * told with the password masked and without that cause.
   */
  private HikariDataSource open(MeterRegistry registry) {
    try {
      return new HikariDataSource(hikari(registry));
    } catch (RuntimeException e) {
      String reason = String.valueOf(e.getMessage()).replace(config.url(), config.maskedUrl());
      throw new SluiceException(
          config + " could not be opened: " + SqlErrors.mask(reason, config.secrets()));
    }
  }

  /**
   * Runs each {@code initSql} statement on its own (a driver may run only the first statement of a
   * text holding several: SQLite's does), in order, on one connection in autocommit.
   *
   * @throws DbException naming the data source and the statement's place ({@code initSql[2]})
   */
  private void runInitSql(HikariDataSource pool) {
    List<String> statements = config.initSql();
    if (statements.isEmpty()) {
      return;
    }
    int at = 0;
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      for (; at < statements.size(); at++) {
        statement.execute(statements.get(at));
      }
    } catch (SQLException e) {
      throw SqlErrors.translate(e, config.name(), "initSql[" + at + "]", config.secrets());
    }
    LOG.debug("data source '{}' ran its {} initSql statement(s)", config.name(), statements.size());
  }

  private HikariConfig hikari(MeterRegistry registry) {
    HikariConfig pool = new HikariConfig();
    pool.setPoolName(config.name());
    pool.setJdbcUrl(config.url());
    pool.setUsername(config.user());
    pool.setPassword(config.password());
    pool.setMaximumPoolSize(config.maxSize());
    pool.setMinimumIdle(config.minIdle());
    pool.setConnectionTimeout(config.connectionTimeout().toMillis());
    pool.setIdleTimeout(config.idleTimeout().toMillis());
    pool.setMaxLifetime(config.maxLifetime().toMillis());
    pool.setInitializationFailTimeout(-1);
    // Operators see each pool in JConsole as com.zaxxer.hikari:type=Pool (NAME): its connections
    // active, idle and total, the threads waiting for one, and softEvictConnections.
    pool.setRegisterMbeans(true);
    if (registry != null) {
      pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
    }
    return pool;
  }
}
