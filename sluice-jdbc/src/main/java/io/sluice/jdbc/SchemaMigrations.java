package io.sluice.jdbc;

import java.util.List;

/**
 * A Sluice module's part of the schema of a SQLite or PostgreSQL storage: the versioned SQL files
 * of the tables it owns (the jobs', the batch's), which the storage's one migration runner applies
 * at open with its own. Found with {@link java.util.ServiceLoader}: a module lists its
 * implementation in {@code META-INF/services/io.sluice.jdbc.SchemaMigrations}. Not for
 * applications.
 *
 * <p>Versions are one sequence shared by every module, recorded in {@code sluice_schema}: a new
 * migration takes the next number no module uses yet (docs/architecture.md, "Schema"), so a
 * database migrated when one module held every table keeps its numbers.
 */
public interface SchemaMigrations {

  /**
   * One version of the schema: its number and the description in its file's name, {@code
   * V<version>__<description>.sql}.
   */
  record Migration(int version, String description) {
    /** Checks the version and the description. */
    public Migration {
      if (version < 1) {
        throw new IllegalArgumentException(
            "A migration's version must be 1 or more, was " + version);
      }
      if (description == null || !description.matches("[a-z0-9_]+")) {
        throw new IllegalArgumentException(
            "A migration's description must be lower case letters, digits and _, was "
                + description);
      }
    }
  }

  /**
   * Where its SQL files are on the class path (read through this class's loader): {@code
   * <folder>/<dialect>/V<version>__<description>.sql}, the dialect being {@code sqlite} or {@code
   * postgresql}; for example {@code io/sluice/jobs/migrations}.
   */
  String folder();

  /** Its migrations, oldest first. */
  List<Migration> migrations();
}
