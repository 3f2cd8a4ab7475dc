package io.sluice.db;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchJob;
import io.sluice.batch.config.BatchConfig;
import io.sluice.config.ConfigLoader;
import io.sluice.core.app.Application;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch tests' fixture: a table of {@code rows} rows on a test database, the YAML of a job
 * copying it to another table through a {@code query} input and an aggregator's {@code db-bulk},
 * and an engine on an embedded store in a directory, as {@code sluice batch run} has.
 */
final class BatchOnDb implements AutoCloseable {

  static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  final Storage storage;
  final Application application;
  final BatchEngine engine;

  BatchOnDb(Path dir) {
    storage =
        new SqliteStorageFactory()
            .open(
                StorageConfig.builder().dataDir(dir).build(),
                VALUES,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
    application = Application.builder().storage(storage).storedValues(VALUES).build();
    engine = BatchEngine.of(application);
  }

  @Override
  public void close() {
    application.close();
    storage.close();
  }

  /** The job {@code yaml} declares (the file's first). */
  static BatchJob job(String yaml) {
    return ConfigLoader.read("copy.yaml", yaml, Path.of("."), BatchOnDb.class.getClassLoader())
        .section(BatchConfig.class)
        .jobs()
        .getFirst();
  }

  /** Creates tables {@code source} (with {@code rows} rows, ids 1..rows) and {@code target}. */
  static void tables(TestDb db, String source, String target, int rows) throws SQLException {
    if (db.kind().equals("sqlite")) {
      db.execute("PRAGMA journal_mode=WAL"); // the query reads while db-bulk writes the same file
    }
    for (String table : List.of(source, target)) {
      db.execute(
          "CREATE TABLE "
              + table
              + " (id bigint primary key, name varchar(40), amount decimal(12,2))");
    }
    for (int from = 1; from <= rows; from += 1000) {
      List<String> values = new ArrayList<>();
      for (int id = from; id < from + 1000 && id <= rows; id++) {
        values.add("(" + id + ", 'row " + id + "', " + id + ".25)");
      }
      db.execute("INSERT INTO " + source + " VALUES " + String.join(", ", values));
    }
  }

  /** The INSERT of db-bulk that does nothing for a row the target has already. */
  static String upsert(TestDb db, String target) {
    return switch (db.kind()) {
      case "mariadb" ->
          "INSERT IGNORE INTO " + target + " (id, name, amount) VALUES (:id, :name, :amount)";
      default ->
          "INSERT INTO "
              + target
              + " (id, name, amount) VALUES (:id, :name, :amount) ON CONFLICT (id) DO NOTHING";
    };
  }

  /**
   * The configuration of job {@code copy}: the rows of {@code source} by id, {@code group} per
   * db-bulk (one JDBC batch each), into {@code target}.
   */
  static String copyJob(TestDb db, String sql, String target, int group) {
    return """
        dataSources:
          - name: db
            url: "%s"
        %s
        batch:
          - name: copy
            blockSize: 200
            input:
              query:
                dataSource: db
                sql: "%s"
                keyColumn: id
                fetchSize: 500
            steps:
              - name: write
                aggregator:
                  size: %d
                  sink:
                    - db-bulk:
                        dataSource: db
                        batchSize: %d
                        sql: "%s"
        """
        .formatted(
            db.url(),
            db.user() == null
                ? ""
                : "    user: "
                    + db.user()
                    + (db.kind().equals("mariadb") ? "\n    password: \"\"" : ""),
            sql,
            group,
            group,
            upsert(db, target));
  }
}
