package io.sluice.jobs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.jdbc.SqliteStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim statement, as the store runs it, is served by the one claim index on both databases,
 * with 20,000 waiting jobs of two types and some running ones.
 */
class OneIndexServesTheClaimTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final String ROWS =
      "INSERT INTO sluice_job (type, priority, due_at, sort_key, state, retries_left, attempts,"
          + " created_at) SELECT CASE WHEN x % 10 = 0 THEN 'fax' ELSE 'email' END, x % 100,"
          + " 1000000 + x, 1000000 + x - (x % 100) * 1000, CASE WHEN x % 50 = 0 THEN 1 ELSE 0 END,"
          + " 3, 0, 0 FROM ";

  /** The claim with its parameters written in: node 'a', epoch 1, 20 email jobs. */
  private static String claim(String type) {
    JobSql sql =
        new JobSql(
            JobSql.databaseNow(type),
            type.equals("postgresql") ? " FOR UPDATE SKIP LOCKED" : "",
            "");
    String statement = sql.claim(1);
    for (String value : new String[] {"'a'", "1", "1100000", "'email'", "'a'", "1", "20"}) {
      statement = statement.replaceFirst("\\?", value);
    }
    return statement;
  }

  private static List<String> plan(Connection connection, String explain) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(explain)) {
      while (rs.next()) {
        lines.add(rs.getString(rs.getMetaData().getColumnCount()));
      }
    }
    return lines;
  }

  @Test
  void onSqliteTheClaimScansOnlyTheClaimIndex(@TempDir Path dir) throws Exception {
    StorageConfig config = StorageConfig.builder().dataDir(dir).build();
    StoredValues values = StoredValues.create(SerializationConfig.defaults());
    try (Storage storage =
            new SqliteStorageFactory()
                .open(config, values, new SimpleMeterRegistry(), Clock.systemUTC());
        Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
        Statement statement = connection.createStatement()) {
      statement.execute(
          ROWS
              + "(WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 20000)"
              + " SELECT x FROM g)");
      statement.execute("ANALYZE");

      assertThat(plan(connection, "EXPLAIN QUERY PLAN " + claim("sqlite")))
          .as("a covering scan of the claim index: the id is the rowid")
          .contains("SCAN sluice_job USING COVERING INDEX sluice_job_claim")
          .noneMatch(
              line -> line.startsWith("SCAN sluice_job") && !line.contains("sluice_job_claim"));
    }
  }

  @Test
  void onPostgresTheClaimScansOnlyTheClaimIndex() throws Exception {
    DB.dropTables();
    StoredValues values = StoredValues.create(SerializationConfig.defaults());
    try (Storage storage =
            new PostgresStorageFactory()
                .open(DB.config(), values, new SimpleMeterRegistry(), Clock.systemUTC());
        Connection connection = DB.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(ROWS + "generate_series(1, 20000) x");
      statement.execute("ANALYZE sluice_job");

      List<String> plan = plan(connection, "EXPLAIN " + claim("postgresql"));

      assertThat(plan).anyMatch(line -> line.contains("Index Scan using sluice_job_claim"));
      assertThat(plan).noneMatch(line -> line.contains("Seq Scan on sluice_job "));
    }
  }
}
