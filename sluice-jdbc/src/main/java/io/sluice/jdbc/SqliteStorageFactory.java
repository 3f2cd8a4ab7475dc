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
import io.sluice.core.store.StoreHeldException;
import io.sluice.core.transaction.DatabaseIdentity;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Opens the embedded SQLite storage: the file {@link StorageConfig#sqliteFile()} (its directory
 * created), in WAL mode with {@code synchronous} as {@link StorageConfig#sync()} says and {@code
 * busy_timeout} of the connect timeout. A file that is not a SQLite database, or is corrupt, is
 * refused; the schema is migrated; then one writer commits in groups and a few read connections
 * read beside it.
 */
public final class SqliteStorageFactory implements StorageFactory {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteStorageFactory.class);

  /** The reads that may run at once beside the writer. */
  private static final int READERS = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** A factory; found by {@link java.util.ServiceLoader}. */
  public SqliteStorageFactory() {}

  @Override
  public String type() {
    return StorageConfig.SQLITE;
  }

  @Override
  public void check(StorageConfig config, ConfigProblems problems) {
    JdbcStoreRules.check(config, problems);
  }

  @Override
  public Storage open(
      StorageConfig config, StoredValues values, MeterRegistry registry, Clock clock) {
    Path file = config.sqliteFile().toAbsolutePath().normalize();
    try {
      Files.createDirectories(file.getParent());
    } catch (IOException e) {
      throw new StoreException(
          "Could not create the data directory "
              + file.getParent()
              + " for the SQLite store: "
              + e
              + ". Check sluice.store.dataDir and its permissions",
          e);
    }
    FileLock owner = lockOwnership(file);
    try {
      return open(config, values, registry, clock, file, owner);
    } catch (RuntimeException e) {
      closeQuietly(owner);
      throw e;
    }
  }

  private Storage open(
      StorageConfig config,
      StoredValues values,
      MeterRegistry registry,
      Clock clock,
      Path file,
      FileLock owner) {
    String url = "jdbc:sqlite:" + file;
    SQLiteConfig writerConfig = connectionConfig(config);
    writerConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
    writerConfig.setSynchronous(
        config.sync() == StorageConfig.Sync.FULL
            ? SQLiteConfig.SynchronousMode.FULL
            : SQLiteConfig.SynchronousMode.NORMAL);
    int version;
    SqliteNativeLibrary.beforeFirstUse();
    try (Connection check = firstConnection(writerConfig, url)) {
      SqliteNativeLibrary.afterFirstUse();
      checkIntegrity(check, file);
      version = Migrations.migrate(check, Dialect.SQLITE, clock, "The SQLite database " + file);
      releaseStaleLocks(check, clock, file);
    } catch (SQLException e) {
      throw openFailure(file, e);
    }
    String description =
        "sqlite " + file + " (WAL, synchronous=" + config.sync() + ", schema v" + version + ")";
    JdbcFailures failures = new JdbcFailures("sqlite " + file, null);
    HikariDataSource readers = readers(url, connectionConfig(config), file);
    GroupCommitWriter.ConnectionSource writes =
        () -> {
          Connection connection = writerConfig.createConnection(url);
          try (Statement statement = connection.createStatement()) {
            statement.execute(
                "PRAGMA wal_autocheckpoint = " + SqliteCheckpointer.WRITER_AUTOCHECKPOINT_PAGES);
          } catch (SQLException e) {
            connection.close();
            throw e;
          }
          return connection;
        };
    SqliteCheckpointer checkpointer =
        new SqliteCheckpointer(() -> writerConfig.createConnection(url), file.toString());
    try {
      JdbcStorage storage =
          new JdbcStorage(
              Dialect.SQLITE,
              description,
              DatabaseIdentity.sqlite(file),
              failures,
              writes,
              readers,
              null,
              values,
              registry,
              clock,
              () -> {
                checkpointer.close();
                owner.channel().close();
              },
              1);
      storage.watchDisk(file);
      return storage;
    } catch (RuntimeException e) {
      checkpointer.close();
      throw e;
    }
  }

  /**
   * One process owns an embedded store: it holds an exclusive lock on {@code sluice.db.lock} beside
   * the file for as long as the storage is open (the operating system drops it when the process
   * dies, SIGKILL included). That is what lets {@link #releaseStaleLocks} hand back at once what a
   * killed predecessor held, instead of waiting for its locks to lapse.
   */
  private static FileLock lockOwnership(Path file) {
    Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
    FileChannel channel = null;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return lock;
      }
    } catch (OverlappingFileLockException e) {
      // this process has it open already: the same answer as another process
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StoreException(
          "Could not lock " + lockFile + " to open the SQLite store " + file + ": " + e, e);
    }
    closeQuietly(channel);
    throw new StoreHeldException(
        "The SQLite store "
            + file
            + " is open in another process or storage (it holds "
            + lockFile
            + "). One process owns an embedded store: stop the other, give this one its own"
            + " sluice.store.dataDir, or share a PostgreSQL store between processes",
        file);
  }

  /**
   * Messages locked when the store was last open were locked by a process that is gone (this one
   * owns the file now): they are made ready again at once. Their deliveries stay counted.
   */
  private static void releaseStaleLocks(Connection connection, Clock clock, Path file)
      throws SQLException {
    try (PreparedStatement release =
        connection.prepareStatement(
            "UPDATE sluice_queue SET lock_owner = NULL, lock_expires = NULL, visible_at = ?"
                + " WHERE lock_owner IS NOT NULL AND dead = 0")) {
      release.setLong(1, clock.millis());
      int released = release.executeUpdate();
      if (released > 0) {
        LOG.info(
            "{} messages of {} were held by a process that stopped without finishing them;"
                + " they are delivered again",
            released,
            file);
      }
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      // nothing more to do with it
    }
  }

  private static void closeQuietly(FileLock lock) {
    if (lock != null) {
      closeQuietly(lock.channel());
    }
  }

  private static SQLiteConfig connectionConfig(StorageConfig config) {
    SQLiteConfig sqlite = new SQLiteConfig();
    sqlite.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
    return sqlite;
  }

  /**
   * A connection. Should the driver fail to load a kept native library, the copy is removed and the
   * error says so: the driver loads no other library in the same process, the next run extracts its
   * own.
   */
  private static Connection firstConnection(SQLiteConfig config, String url) throws SQLException {
    try {
      return config.createConnection(url);
    } catch (SQLException e) {
      if (SqliteNativeLibrary.forgetKeptCopy()) {
        throw new StoreException(
            "Could not open the SQLite store: "
                + JdbcFailures.rootMessage(e)
                + "; the SQLite library kept by an earlier run could not be loaded and was"
                + " removed: the next run extracts the driver's own",
            e);
      }
      throw e;
    }
  }

  private static HikariDataSource readers(String url, SQLiteConfig config, Path file) {
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl(url);
    HikariConfig pool = new HikariConfig();
    pool.setDataSource(source);
    pool.setPoolName("sluice-sqlite-read");
    pool.setMaximumPoolSize(READERS);
    pool.setMinimumIdle(1);
    try {
      return new HikariDataSource(pool);
    } catch (RuntimeException e) {
      throw openFailure(file, e);
    }
  }

  /** Runs {@code PRAGMA quick_check}: a damaged file is refused before anything is written. */
  private static void checkIntegrity(Connection connection, Path file) throws SQLException {
    List<String> problems = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("PRAGMA quick_check(5)")) {
      while (rs.next()) {
        problems.add(rs.getString(1));
      }
    }
    if (!problems.equals(List.of("ok"))) {
      throw notADatabase(file, "quick_check found " + String.join("; ", problems), null);
    }
  }

  private static StoreException openFailure(Path file, Exception e) {
    String why = JdbcFailures.rootMessage(e);
    if (why.contains("SQLITE_NOTADB") || why.contains("SQLITE_CORRUPT")) {
      return notADatabase(file, why, e);
    }
    return new StoreException("Could not open the SQLite store " + file + ": " + why, e);
  }

  private static StoreException notADatabase(Path file, String why, Throwable cause) {
    return new StoreException(
        "The SQLite store "
            + file
            + " is not a SQLite database or is corrupt ("
            + why
            + "). Restore it from a backup, or move it away to start with an empty store",
        cause);
  }
}
