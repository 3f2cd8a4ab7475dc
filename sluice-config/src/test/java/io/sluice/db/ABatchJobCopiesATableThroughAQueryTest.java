package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.batch.BatchEngine;
import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchResult;
import io.sluice.batch.BatchState;
import io.sluice.testkit.MariaDbTestDatabase;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A database-to-database batch job with no code: a {@code query} input reading a table of 20,000
 * rows and a step whose aggregator writes each group with {@code db-bulk} (one JDBC batch per
 * group) copies every row once, on each database; stopped mid-way and run again, it resumes after
 * the last key stored and still loads every row once.
 */
class ABatchJobCopiesATableThroughAQueryTest {

  private static final int ROWS = 20_000;

  @RegisterExtension static final PostgresTestDatabase POSTGRES = new PostgresTestDatabase();
  @RegisterExtension static final MariaDbTestDatabase MARIADB = new MariaDbTestDatabase();
  @TempDir static Path dir;

  static TestDb[] databases() {
    return TestDb.all(POSTGRES, MARIADB, dir);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void everyRowIsCopiedOnce(TestDb db, @TempDir Path data) throws Exception {
    String source = TestDb.table("src");
    String target = TestDb.table("dst");
    BatchOnDb.tables(db, source, target, ROWS);
    BatchJob job =
        BatchOnDb.job(
            BatchOnDb.copyJob(
                db, "SELECT id, name, amount FROM " + source + " ORDER BY id", target, 1000));

    BatchResult result;
    try (BatchOnDb batch = new BatchOnDb(data)) {
      result = batch.engine.run(job).result().get(120, TimeUnit.SECONDS);
    }

    assertThat(result.state()).as(result.message()).isEqualTo(BatchState.COMPLETED);
    assertThat(result.loaded()).isEqualTo(ROWS);
    assertThat(result.successful()).isEqualTo(ROWS);
    assertThat(db.number("SELECT count(*) FROM " + target)).isEqualTo(ROWS);
    assertThat(db.number("SELECT count(DISTINCT id) FROM " + target)).isEqualTo(ROWS);
    assertThat(
            db.number(
                "SELECT count(*) FROM "
                    + target
                    + " t JOIN "
                    + source
                    + " s ON s.id = t.id AND s.name = t.name AND s.amount = t.amount"))
        .isEqualTo(ROWS);
  }

  @ParameterizedTest
  @MethodSource("databases")
  void aJobStoppedMidWayResumesAfterTheLastKeyStored(TestDb db, @TempDir Path data)
      throws Exception {
    String source = TestDb.table("src");
    String target = TestDb.table("dst");
    BatchOnDb.tables(db, source, target, ROWS);
    BatchJob job =
        BatchOnDb.job(
            BatchOnDb.copyJob(
                db,
                "SELECT id, name, amount FROM " + source + " WHERE id > :after ORDER BY id",
                target,
                500));

    BatchResult first;
    BatchResult second;
    try (BatchOnDb batch = new BatchOnDb(data)) {
      BatchEngine.Execution execution = batch.engine.start(job);
      while (execution.progress().loaded() < 2_000 && !execution.result().isDone()) {
        Thread.onSpinWait();
      }
      execution.stop();
      first = execution.result().get(60, TimeUnit.SECONDS);
    }
    try (BatchOnDb batch = new BatchOnDb(data)) {
      BatchEngine.Execution execution = batch.engine.run(job);
      assertThat(execution.instance()).isEqualTo(first.instance());
      second = execution.result().get(120, TimeUnit.SECONDS);
    }

    assertThat(first.state()).isIn(BatchState.STOPPED, BatchState.COMPLETED);
    assertThat(second.state()).as(second.message()).isEqualTo(BatchState.COMPLETED);
    assertThat(second.loaded()).as("records loaded over both runs").isEqualTo(ROWS);
    assertThat(second.successful()).isEqualTo(ROWS);
    assertThat(db.number("SELECT count(*) FROM " + target)).isEqualTo(ROWS);
  }
}
