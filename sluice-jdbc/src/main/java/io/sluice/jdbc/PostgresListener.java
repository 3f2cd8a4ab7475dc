package io.sluice.jdbc;

import io.sluice.core.Backoff;
import io.sluice.core.logging.RepeatedFailureLog;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One storage's ear for other nodes: a dedicated connection (not from the pool, it is held for
 * ever) that LISTENs on {@value Dialect#CHANNEL} and wakes this process's waiters of the queue each
 * notification names. Reconnects with backoff when PostgreSQL goes away, and then wakes every
 * waiter since notifications sent meanwhile are lost.
 */
final class PostgresListener implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresListener.class);

  /** How long one poll for notifications blocks; also bounds how long close() waits. */
  private static final int POLL_MILLIS = 250;

  /** Quiet polls between checks that the connection still answers. */
  private static final int POLLS_BETWEEN_CHECKS = 40;

  private static final Backoff RECONNECT =
      Backoff.doubling(Duration.ofMillis(100), Duration.ofSeconds(5));

  private final String url;
  private final Properties properties;
  private final QueueSignals signals;
  private final JdbcFailures failures;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final RepeatedFailureLog lost;
  private final Thread thread;

  /** Starts listening on {@code url} with {@code properties} (user, password, timeouts). */
  PostgresListener(String url, Properties properties, QueueSignals signals, JdbcFailures failures) {
    this.url = url;
    this.properties = properties;
    this.signals = signals;
    this.failures = failures;
    this.lost =
        new RepeatedFailureLog(
            LOG, "The notification connection to " + failures.where(), Clock.systemUTC());
    this.thread = Thread.ofPlatform().name("sluice-postgresql-listen").unstarted(this::run);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    Backoff.Failures reconnects = RECONNECT.failures();
    while (stop.getCount() > 0) {
      try (Connection connection = DriverManager.getConnection(url, properties)) {
        try (Statement listen = connection.createStatement()) {
          listen.execute("LISTEN " + Dialect.CHANNEL);
        }
        lost.recovered();
        reconnects.reset();
        // Notifications sent while we were not listening are gone: let every waiter look.
        signals.wakeAll();
        listen(connection);
      } catch (SQLException | RuntimeException e) {
        if (stop.getCount() == 0) {
          return;
        }
        lost.failed(
            "Lost the notification connection to {} ({}); reconnecting with backoff, waiting"
                + " takes poll meanwhile",
            failures.where(),
            failures.scrub(JdbcFailures.rootMessage(e)));
      }
      try {
        if (stop.await(reconnects.next().toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void listen(Connection connection) throws SQLException {
    PGConnection pg = connection.unwrap(PGConnection.class);
    int quiet = 0;
    while (stop.getCount() > 0) {
      PGNotification[] notifications = pg.getNotifications(POLL_MILLIS);
      if (notifications != null && notifications.length > 0) {
        quiet = 0;
        for (PGNotification notification : notifications) {
          signals.wake(notification.getParameter());
        }
      } else if (++quiet >= POLLS_BETWEEN_CHECKS) {
        quiet = 0;
        if (!connection.isValid(2)) {
          throw new SQLException("the notification connection stopped answering", "08006");
        }
      }
    }
  }

  /** Stops listening and closes the connection. */
  @Override
  public void close() {
    stop.countDown();
    Threads.joinUninterruptibly(thread);
  }
}
