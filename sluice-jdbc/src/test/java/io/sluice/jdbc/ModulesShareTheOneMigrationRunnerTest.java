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
import org.junit.jupiter.api.io.TempDir;

/**
 * Each module's migrations go through the one runner: in version order, each version recorded once,
 * a module new to a database getting all its parts, two modules never given one version.
 */
class ModulesShareTheOneMigrationRunnerTest {

  @TempDir Path dir;

  /** A module like the jobs or the batch: its files under io/sluice/jdbc/widgets. */
  private static SchemaMigrations widgets(SchemaMigrations.Migration... migrations) {
    return new SchemaMigrations() {
      @Override
      public String folder() {
        return "io/sluice/jdbc/widgets";
      }

      @Override
      public List<Migration> migrations() {
        return List.of(migrations);
      }
    };
  }

  private static final SchemaMigrations WIDGETS =
      widgets(
          new SchemaMigrations.Migration(3, "widgets"),
          new SchemaMigrations.Migration(5, "unreadable_records"));

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("modules.db"));
  }

  private int migrate(Connection c, SchemaMigrations... modules) throws SQLException {
    return Migrations.migrate(
        c, Dialect.SQLITE, Clock.systemUTC(), "the test file", List.of(modules));
  }

  @Test
  void aModuleAddedToADatabaseMigratedWithoutItGetsItsPartOfARecordedVersion() throws Exception {
    try (Connection c = connect()) {
      assertThat(migrate(c, Migrations.STORE)).isEqualTo(5);
      assertThat(migrate(c, Migrations.STORE, WIDGETS)).isEqualTo(5);

      assertThat(rows(c, "SELECT version, description FROM sluice_schema ORDER BY version"))
          .containsExactly(
              "1 stores_and_queues", "2 lean_rows", "3 widgets", "5 unreadable_records");
      assertThat(rows(c, "SELECT name FROM pragma_table_info('widget') ORDER BY cid"))
          .containsExactly("id", "colour");
    }
  }

  @Test
  void aVersionTwoModulesHavePartsOfIsAppliedWholeAndRecordedOnce() throws Exception {
    try (Connection c = connect()) {
      migrate(c, Migrations.STORE, WIDGETS);
      migrate(c, Migrations.STORE, WIDGETS);

      assertThat(rows(c, "SELECT version FROM sluice_schema ORDER BY version"))
          .containsExactly("1", "2", "3", "5");
      assertThat(rows(c, "SELECT name FROM pragma_table_info('widget') ORDER BY cid"))
          .containsExactly("id", "colour");
      assertThat(rows(c, "SELECT name FROM sqlite_master WHERE name = 'sluice_queue_dead'"))
          .containsExactly("sluice_queue_dead");
    }
  }

  @Test
  void versionsUpToTheCombinedListsAreKnownWithoutTheModulesThatOwnThem() throws Exception {
    try (Connection c = connect()) {
      migrate(c, Migrations.STORE);
      c.createStatement().execute("INSERT INTO sluice_schema VALUES (8, 'batch_input_key', 0)");

      assertThat(migrate(c, Migrations.STORE)).isEqualTo(8);
    }
  }

  @Test
  void aVersionNewerThanEveryModuleKnowsIsRefused() throws Exception {
    try (Connection c = connect()) {
      migrate(
          c,
          Migrations.STORE,
          widgets(
              new SchemaMigrations.Migration(3, "widgets"),
              new SchemaMigrations.Migration(9, "gadgets")));

      assertThatThrownBy(() -> migrate(c, Migrations.STORE))
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "the test file has schema version 9, this Sluice knows up to 8; upgrade Sluice (or"
                  + " give it the module whose tables took that version: sluice-jobs, sluice-batch)"
                  + " or use another database");
    }
  }

  @Test
  void twoModulesGivingOneVersionDifferentNamesAreRefused() throws Exception {
    try (Connection c = connect()) {
      assertThatThrownBy(
              () ->
                  migrate(
                      c, Migrations.STORE, widgets(new SchemaMigrations.Migration(2, "widgets"))))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "Two modules claim schema version 2: io/sluice/jdbc/migrations (lean_rows) and"
                  + " io/sluice/jdbc/widgets (widgets); give the newer one the next free version");
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = c.createStatement().executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i == 1 ? "" : " ").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
