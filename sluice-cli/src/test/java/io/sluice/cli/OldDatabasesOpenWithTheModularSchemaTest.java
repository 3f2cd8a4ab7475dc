package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.core.store.Storages;
import io.sluice.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database migrated when sluice-jdbc held every table opens with the modules' migrations (the
 * jobs' in sluice-jobs, the batch's in sluice-batch): nothing is applied or recorded again, and the
 * schema is the one a new database gets. The old databases are made here as the combined list made
 * them: its files, copied unchanged under {@code combined-v8}, applied in order and recorded.
 */
class OldDatabasesOpenWithTheModularSchemaTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final List<String> COMBINED =
      List.of(
          "1 stores_and_queues",
          "2 lean_rows",
          "3 jobs",
          "4 batch",
          "5 unreadable_records",
          "6 exclusive_jobs",
          "7 batch_output",
          "8 batch_input_key");

  /** What a database records now: the combined list, then the versions the modules added since. */
  private static final List<String> NOW =
      java.util.stream.Stream.concat(
              COMBINED.stream(),
              java.util.stream.Stream.of(
                  "9 batch_parameters",
                  "10 job_history",
                  "11 batch_failures",
                  "12 batch_nodes",
                  "13 batch_remote_output"))
          .toList();

  @TempDir Path dir;

  @Test
  void aSqliteFileAtVersion8OpensWithNothingAppliedAgainAndNothingMissing() throws Exception {
    Path old = dir.resolve("old");
    try (Connection c = sqlite(old)) {
      migrateAsTheCombinedListDid(c, "sqlite", 8);
    }
    List<String> recorded;
    try (Connection c = sqlite(old)) {
      recorded = schemaRows(c);
    }

    open(sqliteConfig(old)).close();

    Path fresh = dir.resolve("fresh");
    open(sqliteConfig(fresh)).close();
    try (Connection o = sqlite(old);
        Connection f = sqlite(fresh)) {
      assertThat(schemaRows(o).subList(0, recorded.size()))
          .as("sluice_schema, applied_at included")
          .isEqualTo(recorded);
      assertThat(versions(o)).as("only the versions added since are applied").isEqualTo(NOW);
      assertThat(sqliteSchema(o)).isEqualTo(sqliteSchema(f)).isNotEmpty();
    }
  }

  @Test
  void aSqliteFileAtVersion4GetsBothPartsOfVersion5AndTheRest() throws Exception {
    Path old = dir.resolve("old");
    try (Connection c = sqlite(old)) {
      migrateAsTheCombinedListDid(c, "sqlite", 4);
    }

    open(sqliteConfig(old)).close();

    Path fresh = dir.resolve("fresh");
    open(sqliteConfig(fresh)).close();
    try (Connection o = sqlite(old);
        Connection f = sqlite(fresh)) {
      assertThat(versions(o)).isEqualTo(NOW);
      assertThat(sqliteSchema(o)).isEqualTo(sqliteSchema(f));
    }
  }

  @Test
  void aPostgresSchemaAtVersion8OpensWithNothingAppliedAgainAndNothingMissing() throws Exception {
    DB.dropTables();
    List<String> fresh = postgresSchemaOfANewDatabase();
    DB.dropTables();
    try (Connection c = DB.connect()) {
      migrateAsTheCombinedListDid(c, "postgresql", 8);
    }
    List<String> recorded;
    try (Connection c = DB.connect()) {
      recorded = schemaRows(c);
    }

    open(DB.config()).close();

    try (Connection c = DB.connect()) {
      assertThat(schemaRows(c).subList(0, recorded.size()))
          .as("sluice_schema, applied_at included")
          .isEqualTo(recorded);
      assertThat(versions(c)).as("only the versions added since are applied").isEqualTo(NOW);
      assertThat(postgresSchema(c)).isEqualTo(fresh).isNotEmpty();
    }
  }

  @Test
  void aPostgresSchemaAtVersion4GetsBothPartsOfVersion5AndTheRest() throws Exception {
    DB.dropTables();
    List<String> fresh = postgresSchemaOfANewDatabase();
    DB.dropTables();
    try (Connection c = DB.connect()) {
      migrateAsTheCombinedListDid(c, "postgresql", 4);
    }

    open(DB.config()).close();

    try (Connection c = DB.connect()) {
      assertThat(versions(c)).isEqualTo(NOW);
      assertThat(postgresSchema(c)).isEqualTo(fresh);
    }
  }

  private List<String> postgresSchemaOfANewDatabase() throws SQLException {
    open(DB.config()).close();
    try (Connection c = DB.connect()) {
      assertThat(versions(c)).isEqualTo(NOW);
      return postgresSchema(c);
    }
  }

  /** What the combined runner did: each file up to {@code upTo} in order, recorded with a time. */
  private static void migrateAsTheCombinedListDid(Connection c, String dialect, int upTo)
      throws Exception {
    try (Statement statement = c.createStatement()) {
      statement.execute(
          "CREATE TABLE sluice_schema (version INTEGER PRIMARY KEY,"
              + " description TEXT NOT NULL, applied_at BIGINT NOT NULL)");
      for (String migration : COMBINED.subList(0, upTo)) {
        String[] versionAndDescription = migration.split(" ");
        String file = "V" + versionAndDescription[0] + "__" + versionAndDescription[1] + ".sql";
        for (String sql : statements(read("combined-v8/" + dialect + "/" + file))) {
          statement.execute(sql);
        }
        statement.execute(
            "INSERT INTO sluice_schema VALUES ("
                + versionAndDescription[0]
                + ", '"
                + versionAndDescription[1]
                + "', "
                + (1_000 + Integer.parseInt(versionAndDescription[0]))
                + ")");
      }
    }
  }

  /** The combined runner's statement splitting: one per {@code ;} line, a trigger's block whole. */
  private static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inBlock = false;
    for (String line : script.split("\n")) {
      String code = line.strip();
      if (code.isEmpty() || code.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      inBlock = inBlock ? !code.equalsIgnoreCase("END;") : code.equalsIgnoreCase("BEGIN");
      if (!inBlock && code.endsWith(";")) {
        String statement = current.toString().strip();
        statements.add(statement.substring(0, statement.length() - 1));
        current.setLength(0);
      }
    }
    return statements;
  }

  private static String read(String resource) throws IOException {
    try (InputStream in =
        OldDatabasesOpenWithTheModularSchemaTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Storage open(StorageConfig config) {
    return Storages.open(
        config,
        StoredValues.create(SerializationConfig.defaults()),
        new SimpleMeterRegistry(),
        Clock.systemUTC(),
        OldDatabasesOpenWithTheModularSchemaTest.class.getClassLoader());
  }

  private static StorageConfig sqliteConfig(Path dataDir) {
    return StorageConfig.builder().dataDir(dataDir).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static Connection sqlite(Path dataDir) throws Exception {
    java.nio.file.Files.createDirectories(dataDir);
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("sluice.db"));
  }

  private static List<String> versions(Connection c) throws SQLException {
    return rows(c, "SELECT version, description FROM sluice_schema ORDER BY version").stream()
        .map(row -> row.replace(" | ", " "))
        .toList();
  }

  private static List<String> schemaRows(Connection c) throws SQLException {
    return rows(c, "SELECT version, description, applied_at FROM sluice_schema ORDER BY version");
  }

  /** Every table, index and trigger with the SQL that makes it now (altered tables included). */
  private static List<String> sqliteSchema(Connection c) throws SQLException {
    return rows(
        c,
        "SELECT type, name, tbl_name, sql FROM sqlite_master"
            + " WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
  }

  /** Every column (in order, with its type, default and nullability) and every index. */
  private static List<String> postgresSchema(Connection c) throws SQLException {
    List<String> schema =
        rows(
            c,
            "SELECT table_name, ordinal_position, column_name, data_type, column_default,"
                + " is_nullable FROM information_schema.columns WHERE table_schema = '"
                + DB.schema()
                + "' ORDER BY table_name, ordinal_position");
    schema.addAll(
        rows(
            c,
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = '"
                + DB.schema()
                + "' ORDER BY tablename, indexname"));
    schema.addAll(
        rows(
            c,
            "SELECT event_object_table, trigger_name, action_statement"
                + " FROM information_schema.triggers WHERE trigger_schema = '"
                + DB.schema()
                + "' ORDER BY 1, 2"));
    return schema;
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = c.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i == 1 ? "" : " | ").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
