package io.sluice.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.health.HealthCheck;
import io.sluice.core.health.HealthContributor;
import io.sluice.core.logging.RepeatedFailureLog;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Require;
import io.sluice.core.store.Storage;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A storage in SQLite or PostgreSQL: every write goes through one {@link GroupCommitWriter}, every
 * read through a pool of read connections (SQLite's WAL lets them read while the writer writes).
 * What differs between the two databases is in the {@link Dialect}; the factories open the
 * connections and hand them over.
 */
final class JdbcStorage implements Storage, HealthContributor {

  private static final Logger LOG = LoggerFactory.getLogger(JdbcStorage.class);

  /** Reads of one storage: the work done on a read connection. */
  @FunctionalInterface
  interface Read<T> {
    /** Reads with {@code connection} (auto-commit). */
    T run(Connection connection) throws SQLException;
  }

  private final Dialect dialect;
  private final String description;
  private final String database;
  private final JdbcFailures failures;
  private final HikariDataSource readers;
  private final StoredValues values;
  private final Clock clock;
  private final MeterRegistry registry;
  private final QueueSignals signals = new QueueSignals();
  private final GroupCommitWriter writer;
  private final PostgresListener listener;
  private final RepeatedFailureLog outage;
  private final AutoCloseable owned;
  private volatile boolean closed;
  private volatile Duration recheck = Duration.ofSeconds(1);

  /**
   * A storage in {@code database} (its identity) that writes on connections from {@code writes},
   * reads from {@code readers} and, when {@code listener} is given, hears of other nodes' enqueues
   * through what it starts; {@code owned} (may be null) is closed last, when the storage closes.
   */
  JdbcStorage(
      Dialect dialect,
      String description,
      String database,
      JdbcFailures failures,
      GroupCommitWriter.ConnectionSource writes,
      HikariDataSource readers,
      Function<QueueSignals, PostgresListener> listener,
      StoredValues values,
      MeterRegistry registry,
      Clock clock,
      AutoCloseable owned,
      int writers) {
    this.owned = owned;
    this.dialect = dialect;
    this.description = description;
    this.database = database;
    this.failures = failures;
    this.readers = readers;
    this.values = values;
    this.clock = clock;
    this.registry = registry;
    this.outage = new RepeatedFailureLog(LOG, failures.where(), clock);
    this.writer =
        new GroupCommitWriter(dialect, writes, signals::wake, failures, registry, writers);
    this.listener = listener == null ? null : listener.apply(signals);
    LOG.debug("Opened storage {}", description);
  }

  @Override
  public ObjectStore objectStore(String name, ObjectStoreOptions options) {
    Require.nonBlank(name, "name");
    ObjectStoreOptions chosen = options == null ? ObjectStoreOptions.DEFAULTS : options;
    return new JdbcObjectStore(this, name, chosen, valuesFor(chosen.serializer()));
  }

  @Override
  public DurableQueue queue(String name, QueueOptions options) {
    Require.nonBlank(name, "name");
    QueueOptions chosen = options == null ? QueueOptions.DEFAULTS : options;
    return new JdbcDurableQueue(this, name, chosen, valuesFor(chosen.serializer()));
  }

  private StoredValues valuesFor(String serializer) {
    return serializer == null ? values : values.named(serializer);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public boolean durable() {
    return true;
  }

  Dialect dialect() {
    return dialect;
  }

  /**
   * Below this much free space on the SQLite file's disk (or 5% of a smaller disk) the store is
   * reported down: a write may fail any moment (SQLite needs room for its journal as well as the
   * pages it adds), and an overwrite that still fits in the journal would not tell.
   */
  static final long LOW_DISK_BYTES = 64L * 1024 * 1024;

  private volatile Path watchedFile;

  private static String kib(long bytes) {
    return bytes >= 10L * 1024 * 1024 ? bytes / (1024 * 1024) + " MiB" : bytes / 1024 + " KiB";
  }

  /** Reports the free space of {@code file}'s disk in {@link #health()}. */
  void watchDisk(Path file) {
    watchedFile = file;
  }

  /** The free space of the SQLite file's disk (the write probe itself is the application's). */
  @Override
  public List<HealthCheck> health() {
    Path file = watchedFile;
    if (file == null) {
      return List.of();
    }
    try {
      FileStore disk = Files.getFileStore(file);
      long free = disk.getUsableSpace();
      long low = Math.min(LOW_DISK_BYTES, disk.getTotalSpace() / 20);
      String detail = kib(free) + " free on the disk of " + file;
      return List.of(
          free < low
              ? HealthCheck.down("store disk", detail + ", under " + kib(low))
              : HealthCheck.up("store disk", detail));
    } catch (IOException e) {
      return List.of(
          HealthCheck.down("store disk", "cannot read the free space of " + file + ": " + e));
    }
  }

  /**
   * The database the storage is in, as {@link io.sluice.core.transaction.DatabaseIdentity} gives
   * it: a data source with the same identity shares it, so a queue's enqueue can join its
   * transactions.
   */
  String database() {
    return database;
  }

  JdbcFailures failures() {
    return failures;
  }

  MeterRegistry registry() {
    return registry;
  }

  Clock clock() {
    return clock;
  }

  QueueSignals signals() {
    return signals;
  }

  /**
   * How often a waiting take looks again when nothing woke it: the safety net behind the wake-ups,
   * and what picks up lapsed locks and delayed messages.
   */
  Duration recheck() {
    return recheck;
  }

  /** Changes {@link #recheck()}; tests make it long to show that a wake-up, not a poll, works. */
  void recheckEvery(Duration interval) {
    this.recheck = interval;
  }

  /** Writes waiting for the writer, for tests that line writes up into one commit. */
  int waitingWrites() {
    return writer.waiting();
  }

  /** Runs {@code work} in the writer's next commit; a StoreException naming {@code what}. */
  <T> T write(String what, GroupCommitWriter.Work<T> work) {
    return writer.submit(what, work);
  }

  /** Runs {@code work} for {@code item} in the writer's next commit, shared with other items. */
  <I, R> R write(String what, GroupCommitWriter.SharedWork<I, R> work, I item) {
    return writer.submit(what, work, item);
  }

  /** Runs {@code read} on a read connection; a StoreException naming {@code what}. */
  <T> T read(String what, Read<T> read) {
    if (closed) {
      throw failures.closed(what);
    }
    try (Connection connection = readers.getConnection()) {
      return read.run(connection);
    } catch (SQLException | RuntimeException e) {
      throw failures.translate(what, e);
    }
  }

  /** Maps one result row. */
  @FunctionalInterface
  interface Row<T> {
    /** The value of the row {@code rs} is on. */
    T map(ResultSet rs) throws SQLException;
  }

  /** The rows {@code sql} selects with {@code parameters}, on a read connection. */
  <T> List<T> query(String what, String sql, Row<T> row, Object... parameters) {
    return read(
        what,
        c -> {
          try (PreparedStatement select = c.prepareStatement(sql)) {
            bind(select, parameters);
            List<T> found = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
              while (rs.next()) {
                found.add(row.map(rs));
              }
            }
            return found;
          }
        });
  }

  /** The number {@code sql} (a {@code SELECT COUNT(*)}) gives with {@code parameters}. */
  long count(String what, String sql, Object... parameters) {
    return query(what, sql, rs -> rs.getLong(1), parameters).getFirst();
  }

  /** Sets {@code parameters} (String, Long, Integer, byte[] or null) from the first on. */
  static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      switch (parameters[i]) {
        case null -> statement.setNull(i + 1, java.sql.Types.NULL);
        case String text -> statement.setString(i + 1, text);
        case Long number -> statement.setLong(i + 1, number);
        case Integer number -> statement.setInt(i + 1, number);
        case byte[] bytes -> statement.setBytes(i + 1, bytes);
        default -> throw new IllegalArgumentException("Cannot bind a " + parameters[i].getClass());
      }
    }
  }

  /**
   * Notes that a take found the database unreachable: logged once per outage, then summarised (a
   * waiting take retries every few seconds for as long as the outage lasts).
   */
  void unreachable(RuntimeException e) {
    outage.failed(
        "{} is unreachable ({}); waiting takes keep retrying, writes fail until it is back",
        failures.where(),
        e.getMessage());
  }

  /** Notes that the database answered again. */
  void reachable() {
    outage.recovered();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    writer.close();
    if (listener != null) {
      listener.close();
    }
    readers.close();
    signals.wakeAll();
    if (owned != null) {
      try {
        owned.close();
      } catch (Exception e) {
        LOG.warn("Could not release {}: {}", description, e.toString());
      }
    }
  }

  @Override
  public String toString() {
    return "JdbcStorage[" + description + "]";
  }
}
