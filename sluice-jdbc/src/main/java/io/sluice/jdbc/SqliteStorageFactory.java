package io.sluice.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.StorageFactory;
import io.sluice.core.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
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

  /** The reads that may run at once beside the writer. */
  private static final int READERS = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** A factory; found by {@link java.util.ServiceLoader}. */
  public SqliteStorageFactory() {}

  @Override
  public StorageConfig.Type type() {
    return StorageConfig.Type.SQLITE;
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
    String url = "jdbc:sqlite:" + file;
    SQLiteConfig writerConfig = connectionConfig(config);
    writerConfig.setJournalMode(SQLiteConfig.JournalMode.WAL);
    writerConfig.setSynchronous(
        config.sync() == StorageConfig.Sync.FULL
            ? SQLiteConfig.SynchronousMode.FULL
            : SQLiteConfig.SynchronousMode.NORMAL);
    int version;
    try (Connection check = writerConfig.createConnection(url)) {
      checkIntegrity(check, file);
      version = Migrations.migrate(check, Dialect.SQLITE, clock, "The SQLite database " + file);
    } catch (SQLException e) {
      throw openFailure(file, e);
    }
    String description =
        "sqlite " + file + " (WAL, synchronous=" + config.sync() + ", schema v" + version + ")";
    JdbcFailures failures = new JdbcFailures("sqlite " + file, null);
    HikariDataSource readers = readers(url, connectionConfig(config), file);
    return new JdbcStorage(
        Dialect.SQLITE,
        description,
        failures,
        () -> writerConfig.createConnection(url),
        readers,
        null,
        values,
        registry,
        clock);
  }

  private static SQLiteConfig connectionConfig(StorageConfig config) {
    SQLiteConfig sqlite = new SQLiteConfig();
    sqlite.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
    return sqlite;
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
