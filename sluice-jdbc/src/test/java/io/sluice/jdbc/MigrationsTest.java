package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoreException;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migrations are applied once, recorded, upgrade what an older version wrote, and a newer schema
 * than the code knows is refused.
 */
class MigrationsTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  /**
   * The versions sluice-jdbc's own tables record: the jobs' and the batch's are their modules',
   * which are not on this module's class path (sluice-cli's
   * OldDatabasesOpenWithTheModularSchemaTest opens a database with all of them).
   */
  private static final List<String> STORE_VERSIONS =
      List.of("1 stores_and_queues", "2 lean_rows", "5 unreadable_records");

  @TempDir Path dir;

  private static List<String> schemaRows(Connection connection) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs =
        connection
            .createStatement()
            .executeQuery("SELECT version, description FROM sluice_schema ORDER BY version")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + " " + rs.getString(2));
      }
    }
    return rows;
  }

  private Connection sqliteFile() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
  }

  @Test
  void sqliteMigrationsAreAppliedOnceAcrossReopens() throws Exception {
    TestStorages.sqlite(dir, Clock.systemUTC()).close();
    TestStorages.sqlite(dir, Clock.systemUTC()).close();

    try (Connection c = sqliteFile()) {
      assertThat(schemaRows(c)).containsExactlyElementsOf(STORE_VERSIONS);
    }
  }

  @Test
  void aSqliteFileWithANewerSchemaIsRefused() throws Exception {
    TestStorages.sqlite(dir, Clock.systemUTC()).close();
    try (Connection c = sqliteFile()) {
      c.createStatement().execute("INSERT INTO sluice_schema VALUES (9, 'from the future', 0)");
    }

    assertThatThrownBy(() -> TestStorages.sqlite(dir, Clock.systemUTC()))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "The SQLite database "
                + dir.resolve("sluice.db").toAbsolutePath()
                + " has schema version 9, this Sluice knows up to 8; upgrade Sluice (or give it the"
                + " module whose tables took that version: sluice-jobs, sluice-batch) or use"
                + " another database");
  }

  @Test
  void postgresMigrationsAreAppliedOnceAcrossReopensInTheirOwnSchema() throws Exception {
    TestStorages.postgres(DB, Clock.systemUTC()).close();
    TestStorages.postgres(DB, Clock.systemUTC()).close();

    try (Connection c = DB.connect()) {
      assertThat(schemaRows(c)).containsExactlyElementsOf(STORE_VERSIONS);
      ResultSet rs =
          c.createStatement()
              .executeQuery(
                  "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                      + DB.schema()
                      + "' AND table_name LIKE 'sluice_%'");
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(5);
    }
  }

  @Test
  void nodesStartingTogetherMigrateOnce() throws Exception {
    DB.dropTables();
    List<Thread> nodes = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      TestStorages.postgres(DB, Clock.systemUTC()).close();
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  }));
    }
    for (Thread node : nodes) {
      node.join();
    }

    assertThat(failures).isEmpty();
    try (Connection c = DB.connect()) {
      assertThat(schemaRows(c)).containsExactlyElementsOf(STORE_VERSIONS);
    }
  }

  @Test
  void aPostgresDatabaseWithANewerSchemaIsRefused() throws Exception {
    TestStorages.postgres(DB, Clock.systemUTC()).close();
    DB.execute("INSERT INTO sluice_schema VALUES (9, 'from the future', 0)");
    try {
      assertThatThrownBy(() -> TestStorages.postgres(DB, Clock.systemUTC()))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining(
              "The PostgreSQL database jdbc:postgresql://127.0.0.1:5432/test?currentSchema="
                  + DB.schema()
                  + " as postgres has schema version 9, this Sluice knows up to 8; upgrade"
                  + " Sluice (or give it the module whose tables took that version: sluice-jobs,"
                  + " sluice-batch) or use another database");
    } finally {
      DB.execute("DELETE FROM sluice_schema WHERE version = 9");
    }
  }

  @Test
  void aSqliteFileOfVersion1IsUpgradedAndItsMessagesAreStillDelivered() throws Exception {
    try (Connection c = sqliteFile()) {
      createVersion1WithAMessage(c, Dialect.SQLITE);
    }
    try (JdbcStorage storage = TestStorages.sqlite(dir, Clock.systemUTC())) {
      assertTheMessageIsDeliveredAndItsPayloadGoesWithIt(storage);
    }
    try (Connection c = sqliteFile()) {
      assertUpgraded(c);
    }
  }

  @Test
  void aPostgresDatabaseOfVersion1IsUpgradedAndItsMessagesAreStillDelivered() throws Exception {
    DB.dropTables();
    try (Connection c = DB.connect()) {
      createVersion1WithAMessage(c, Dialect.POSTGRESQL);
    }
    try (JdbcStorage storage = TestStorages.postgres(DB, Clock.systemUTC())) {
      assertTheMessageIsDeliveredAndItsPayloadGoesWithIt(storage);
    }
    try (Connection c = DB.connect()) {
      assertUpgraded(c);
    }
  }

  /** The schema as the first release left it, with one message in queue 'q'. */
  private static void createVersion1WithAMessage(Connection c, Dialect dialect) throws Exception {
    Statement statement = c.createStatement();
    statement.execute(
        "CREATE TABLE sluice_schema (version INTEGER PRIMARY KEY,"
            + " description TEXT NOT NULL, applied_at BIGINT NOT NULL)");
    String v1 =
        new Migrations.Part(Migrations.STORE, Migrations.STORE.migrations().getFirst())
            .read(dialect);
    for (String sql : Migrations.statements(v1)) {
      statement.execute(sql);
    }
    statement.execute("INSERT INTO sluice_schema VALUES (1, 'stores_and_queues', 0)");
    statement.execute("INSERT INTO sluice_queue (queue, visible_at) VALUES ('q', 0)");
    try (PreparedStatement payload =
        c.prepareStatement(
            "INSERT INTO sluice_queue_payload (id, payload)"
                + " SELECT MAX(id), ? FROM sluice_queue")) {
      payload.setBytes(1, TestStorages.values().write("written by version 1"));
      payload.executeUpdate();
    }
  }

  private static void assertTheMessageIsDeliveredAndItsPayloadGoesWithIt(JdbcStorage storage) {
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);
    List<Delivery> taken = queue.take(10);
    assertThat(taken).extracting(Delivery::payload).containsExactly("written by version 1");
    assertThat(queue.ack(taken.getFirst())).isTrue();
  }

  private static void assertUpgraded(Connection c) throws SQLException {
    assertThat(schemaRows(c)).containsExactlyElementsOf(STORE_VERSIONS);
    ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sluice_queue_payload");
    rs.next();
    assertThat(rs.getInt(1)).as("payload rows left after the ack").isZero();
  }
}
