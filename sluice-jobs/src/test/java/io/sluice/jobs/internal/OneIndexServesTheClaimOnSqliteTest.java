package io.sluice.jobs.internal;

import static io.sluice.jobs.internal.ClaimPlans.ROWS;
import static io.sluice.jobs.internal.ClaimPlans.claim;
import static io.sluice.jobs.internal.ClaimPlans.keysToClaim;
import static io.sluice.jobs.internal.ClaimPlans.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StorageConfig;
import io.sluice.jdbc.SqliteStorageFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On SQLite the claim is one covering scan of the claim index. */
class OneIndexServesTheClaimOnSqliteTest {

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
      assertThat(plan(connection, "EXPLAIN QUERY PLAN " + keysToClaim("sqlite")))
          .as("with no keyed job, the choice of keys reads the empty index of keyed jobs")
          .anyMatch(line -> line.contains("sluice_job_keyed_claim"))
          .noneMatch(line -> line.startsWith("SCAN sluice_job") && line.endsWith("sluice_job"))
          .noneMatch(line -> line.contains("INDEX sluice_job_claim"));
    }
  }
}
