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
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** On PostgreSQL the claim is an index scan of the claim index, never a scan of the table. */
class OneIndexServesTheClaimOnPostgresTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

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
      List<String> keys = plan(connection, "EXPLAIN " + keysToClaim("postgresql"));
      assertThat(keys)
          .as("with no keyed job, the choice of keys reads an (empty) index of keyed jobs only")
          .anyMatch(line -> line.contains("using sluice_job_keyed_claim on sluice_job"))
          .noneMatch(line -> line.contains("Seq Scan on sluice_job "))
          .noneMatch(line -> line.contains("using sluice_job_claim"));
    }
  }
}
