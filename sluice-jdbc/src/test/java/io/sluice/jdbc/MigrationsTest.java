package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.store.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Migrations are applied once, recorded, and a newer schema than the code knows is refused. */
class MigrationsTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

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
      assertThat(schemaRows(c)).containsExactly("1 stores_and_queues");
    }
  }

  @Test
  void aSqliteFileWithANewerSchemaIsRefused() throws Exception {
    TestStorages.sqlite(dir, Clock.systemUTC()).close();
    try (Connection c = sqliteFile()) {
      c.createStatement().execute("INSERT INTO sluice_schema VALUES (7, 'from the future', 0)");
    }

    assertThatThrownBy(() -> TestStorages.sqlite(dir, Clock.systemUTC()))
        .isInstanceOf(StoreException.class)
        .hasMessage(
            "The SQLite database "
                + dir.resolve("sluice.db").toAbsolutePath()
                + " has schema version 7, this Sluice knows up to 1; upgrade Sluice or use"
                + " another database");
  }

  @Test
  void postgresMigrationsAreAppliedOnceAcrossReopensInTheirOwnSchema() throws Exception {
    TestStorages.postgres(DB, Clock.systemUTC()).close();
    TestStorages.postgres(DB, Clock.systemUTC()).close();

    try (Connection c = DB.connect()) {
      assertThat(schemaRows(c)).containsExactly("1 stores_and_queues");
      ResultSet rs =
          c.createStatement()
              .executeQuery(
                  "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                      + DB.schema()
                      + "' AND table_name LIKE 'sluice_%'");
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(4);
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
      assertThat(schemaRows(c)).containsExactly("1 stores_and_queues");
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
                  + " as postgres has schema version 9, this Sluice knows up to 1; upgrade"
                  + " Sluice or use another database");
    } finally {
      DB.execute("DELETE FROM sluice_schema WHERE version = 9");
    }
  }
}
