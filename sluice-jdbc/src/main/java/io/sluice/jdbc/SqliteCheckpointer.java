package io.sluice.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the SQLite write-ahead log back into the database file on a thread of its own, so that the
 * writer's commits do not stop to do it. SQLite's automatic checkpoint runs inside the commit that
 * crosses the threshold: with the writer the bottleneck, that made every thousandth commit copy and
 * fsync megabytes. A passive checkpoint needs no write lock and never blocks the writer; the writer
 * keeps a far larger automatic threshold as a safety net for when this thread falls behind
 * (measured: 1 KB messages end to end went from 52k to 68k msg/s with the threshold alone raised,
 * and further with the checkpoint moved here).
 */
final class SqliteCheckpointer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteCheckpointer.class);

  /** How often the log is copied back: often enough that it stays a few MB under full load. */
  private static final long INTERVAL_NANOS = 50_000_000L;

  /** The writer's automatic checkpoint threshold in pages: only reached if this thread lags. */
  static final int WRITER_AUTOCHECKPOINT_PAGES = 50_000;

  private final GroupCommitWriter.ConnectionSource source;
  private final Thread thread;
  private volatile boolean closed;

  SqliteCheckpointer(GroupCommitWriter.ConnectionSource source, String file) {
    this.source = source;
    this.thread = Thread.ofPlatform().name("sluice-checkpoint-" + file).unstarted(this::run);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    Connection connection = null;
    while (!closed) {
      LockSupport.parkNanos(INTERVAL_NANOS);
      try {
        if (connection == null) {
          connection = source.open();
        }
        try (Statement statement = connection.createStatement()) {
          statement.execute("PRAGMA wal_checkpoint(PASSIVE)");
        }
      } catch (SQLException e) {
        // The writer's own automatic checkpoint covers for this; try again with a new connection.
        LOG.debug("A background checkpoint failed; retrying", e);
        connection = closeQuietly(connection);
      }
    }
    closeQuietly(connection);
  }

  private static Connection closeQuietly(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // Nothing more to release.
      }
    }
    return null;
  }

  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
    Threads.joinUninterruptibly(thread);
  }
}
