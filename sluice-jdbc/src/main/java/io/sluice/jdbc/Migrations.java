package io.sluice.jdbc;

import io.sluice.core.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The one migration runner. The schema is owned by the modules whose tables it holds: sluice-jdbc's
 * own (object stores and queues, {@link #STORE}) and every {@link SchemaMigrations} found with
 * {@link ServiceLoader} (the jobs', the batch's). Their versioned SQL files are applied at open in
 * one transaction, in version order, and each version is recorded once in {@code sluice_schema}. A
 * database with a newer schema than this code knows is refused rather than written to.
 *
 * <p>Versions are one sequence across the modules, so a database migrated while sluice-jdbc held
 * every table (versions 1 to {@link #COMBINED_LATEST}) keeps its rows and nothing is applied again.
 * A version is applied when it is not recorded; a module new to the database (its first version is
 * not recorded) gets all its migrations, including its part of a version another module already
 * recorded (version 5 has a part in sluice-jdbc and one in sluice-batch, once one file).
 */
final class Migrations {

  /**
   * The newest version of the list sluice-jdbc held alone, before each module owned its tables:
   * every Sluice since knows versions up to it, whichever modules it has.
   */
  static final int COMBINED_LATEST = 8;

  /** sluice-jdbc's own tables: object stores and durable queues. */
  static final SchemaMigrations STORE =
      new SchemaMigrations() {
        @Override
        public String folder() {
          return "io/sluice/jdbc/migrations";
        }

        @Override
        public List<Migration> migrations() {
          return List.of(
              new Migration(1, "stores_and_queues"),
              new Migration(2, "lean_rows"),
              new Migration(5, "unreadable_records"));
        }
      };

  /** One module's file of one version. */
  record Part(SchemaMigrations owner, SchemaMigrations.Migration migration) {
    int version() {
      return migration.version();
    }

    String resource(Dialect dialect) {
      return owner.folder()
          + "/"
          + dialect.type()
          + "/V"
          + migration.version()
          + "__"
          + migration.description()
          + ".sql";
    }

    String read(Dialect dialect) {
      String resource = resource(dialect);
      ClassLoader loader = owner.getClass().getClassLoader();
      try (InputStream in = loader.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("The migration " + resource + " is missing from the jar");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalStateException("Could not read the migration " + resource, e);
      }
    }
  }

  private Migrations() {}

  /** sluice-jdbc's own migrations and those of every module on the class path. */
  static List<SchemaMigrations> registered() {
    List<SchemaMigrations> all = new ArrayList<>();
    all.add(STORE);
    ServiceLoader.load(SchemaMigrations.class, Migrations.class.getClassLoader()).forEach(all::add);
    return all;
  }

  /**
   * Every part of {@code modules}, in version order (the parts of one version in the modules'
   * order); an IllegalStateException when two modules give one version different descriptions.
   */
  static List<Part> parts(List<SchemaMigrations> modules) {
    List<Part> parts = new ArrayList<>();
    Map<Integer, Part> byVersion = new HashMap<>();
    for (SchemaMigrations module : modules) {
      for (SchemaMigrations.Migration migration : module.migrations()) {
        Part part = new Part(module, migration);
        Part other = byVersion.putIfAbsent(migration.version(), part);
        if (other != null && !other.migration().description().equals(migration.description())) {
          throw new IllegalStateException(
              "Two modules claim schema version "
                  + migration.version()
                  + ": "
                  + other.owner().folder()
                  + " ("
                  + other.migration().description()
                  + ") and "
                  + module.folder()
                  + " ("
                  + migration.description()
                  + "); give the newer one the next free version");
        }
        parts.add(part);
      }
    }
    parts.sort(Comparator.comparingInt(Part::version));
    return parts;
  }

  /**
   * Brings the schema on {@code connection} (auto-commit) to every registered module's newest
   * version in one transaction, after taking the dialect's lock so nodes starting together do not
   * race; returns the newest version recorded.
   */
  static int migrate(Connection connection, Dialect dialect, Clock clock, String where)
      throws SQLException {
    return migrate(connection, dialect, clock, where, registered());
  }

  /** {@link #migrate(Connection, Dialect, Clock, String)} with these modules' migrations. */
  static int migrate(
      Connection connection,
      Dialect dialect,
      Clock clock,
      String where,
      List<SchemaMigrations> modules)
      throws SQLException {
    List<Part> parts = parts(modules);
    int known = Math.max(COMBINED_LATEST, parts.isEmpty() ? 0 : parts.getLast().version());
    try (Statement statement = connection.createStatement()) {
      statement.execute(dialect.begin());
      try {
        if (dialect.schemaLock() != null) {
          statement.execute(dialect.schemaLock());
        }
        statement.execute(
            "CREATE TABLE IF NOT EXISTS sluice_schema (version INTEGER PRIMARY KEY,"
                + " description TEXT NOT NULL, applied_at BIGINT NOT NULL)");
        Set<Integer> recorded = recordedVersions(statement);
        int current = recorded.stream().mapToInt(Integer::intValue).max().orElse(0);
        if (current > known) {
          throw new StoreException(
              where
                  + " has schema version "
                  + current
                  + ", this Sluice knows up to "
                  + known
                  + "; upgrade Sluice (or give it the module whose tables took that version:"
                  + " sluice-jobs, sluice-batch) or use another database");
        }
        Set<SchemaMigrations> newModules = new HashSet<>();
        for (SchemaMigrations module : modules) {
          if (!module.migrations().isEmpty()
              && !recorded.contains(module.migrations().getFirst().version())) {
            newModules.add(module);
          }
        }
        Set<Integer> recording = new HashSet<>();
        for (Part part : parts) {
          if (!recorded.contains(part.version()) || newModules.contains(part.owner())) {
            for (String sql : statements(part.read(dialect))) {
              statement.execute(sql);
            }
          }
          if (!recorded.contains(part.version()) && recording.add(part.version())) {
            record(connection, part.migration(), clock);
          }
        }
        statement.execute("COMMIT");
        recording.addAll(recorded);
        return recording.stream().mapToInt(Integer::intValue).max().orElse(0);
      } catch (SQLException | RuntimeException e) {
        try {
          statement.execute("ROLLBACK");
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }
  }

  private static Set<Integer> recordedVersions(Statement statement) throws SQLException {
    Set<Integer> versions = new HashSet<>();
    try (ResultSet rs = statement.executeQuery("SELECT version FROM sluice_schema")) {
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
    }
    return versions;
  }

  private static void record(
      Connection connection, SchemaMigrations.Migration migration, Clock clock)
      throws SQLException {
    try (PreparedStatement record =
        connection.prepareStatement(
            "INSERT INTO sluice_schema (version, description, applied_at) VALUES (?, ?, ?)")) {
      record.setInt(1, migration.version());
      record.setString(2, migration.description());
      record.setLong(3, clock.millis());
      record.executeUpdate();
    }
  }

  /**
   * The statements of a migration file: comment lines dropped, each ending at a line that ends with
   * {@code ;}, except inside a trigger's {@code BEGIN} ... {@code END;} block.
   */
  static List<String> statements(String script) {
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
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }
}
