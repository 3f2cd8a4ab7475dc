package io.sluice.jobs.internal;

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
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The writes fenced by a lease (completion, hand-back) find their jobs by key, however stale the
 * statistics: analyzed while every job waited, the planner believes no job runs, and a plan through
 * the running jobs' index then read every job the node held for each write (a no-op benchmark node
 * stalled on completions of 512 jobs that each took seconds).
 */
class FencedWritesFindJobsByKeyOnPostgresTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final JobSql SQL =
      JobSql.of("postgresql", " FOR UPDATE SKIP LOCKED", " = ANY(?::bigint[])", true);

  private Storage storage;

  @BeforeEach
  void thirtyThousandJobsOfWhichTwentyThousandRunAfterTheLastAnalyze() throws Exception {
    DB.dropTables();
    StoredValues values = StoredValues.create(SerializationConfig.defaults());
    storage =
        new PostgresStorageFactory()
            .open(DB.config(), values, new SimpleMeterRegistry(), Clock.systemUTC());
    try (Connection connection = DB.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO sluice_job (type, priority, due_at, sort_key, state, retries_left,"
              + " created_at) SELECT 'noop', 0, x, x, 0, 3, 0 FROM generate_series(1, 30000) x");
      statement.execute("INSERT INTO sluice_job_payload SELECT id, '\\x00' FROM sluice_job");
      statement.execute(
          "INSERT INTO sluice_job_error SELECT id, 'failed once', 0 FROM sluice_job WHERE id > 20000");
      statement.execute("ANALYZE sluice_job, sluice_job_payload, sluice_job_error");
      statement.execute(
          "UPDATE sluice_job SET state = 1, owner = 'a', epoch = 1 WHERE id <= 20000");
    }
  }

  @AfterEach
  void close() {
    storage.close();
  }

  /**
   * The statement's generic plan (the one a prepared statement settles on), for 500 held ids of
   * node 'a', epoch 1, then {@code more} parameters.
   */
  private List<String> genericPlan(String statement, String types, String more) throws Exception {
    String numbered = statement;
    for (int i = 1; numbered.contains("?"); i++) {
      numbered = numbered.replaceFirst("\\?", "\\$" + i);
    }
    String ids =
        LongStream.rangeClosed(10001, 10500)
            .mapToObj(Long::toString)
            .collect(Collectors.joining(",", "'{", "}'"));
    try (Connection connection = DB.connect();
        Statement session = connection.createStatement()) {
      session.execute("SET plan_cache_mode = force_generic_plan");
      session.execute("PREPARE fenced(" + types + ") AS " + numbered);
      return plan(connection, "EXPLAIN EXECUTE fenced(" + ids + ", 'a', 1" + more + ")");
    }
  }

  @Test
  void aCompletionDeletesItsJobsPayloadsAndErrorsByKey() throws Exception {
    // With history kept: the same statement writes the jobs' entries from the rows it deletes.
    List<String> plan = genericPlan(SQL.complete(), "text, text, bigint, bigint", ", 0");

    assertThat(plan).noneMatch(line -> line.contains("sluice_job_running"));
    assertThat(plan).noneMatch(line -> line.contains("Seq Scan"));
    assertThat(plan)
        .anyMatch(line -> line.contains("Index Scan using sluice_job_pkey"))
        .anyMatch(line -> line.contains("Index Scan using sluice_job_payload_pkey"))
        .anyMatch(line -> line.contains("Index Scan using sluice_job_error_pkey"));
  }

  @Test
  void aHandBackUpdatesItsJobsByKey() throws Exception {
    List<String> plan = genericPlan(SQL.release(), "text, text, bigint", "");

    assertThat(plan).noneMatch(line -> line.contains("sluice_job_running"));
    assertThat(plan).anyMatch(line -> line.contains("Index Scan using sluice_job_pkey"));
  }
}
