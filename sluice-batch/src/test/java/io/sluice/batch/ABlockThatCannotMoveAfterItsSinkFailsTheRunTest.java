package io.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.app.Application;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block whose group the aggregator's sink took, but whose move past its step the store refuses (a
 * trigger raises, as a timeout under load would): the run ends failed, naming the move, rather than
 * waiting for ever for the block to leave (the hang seen on the PostgreSQL store under load); the
 * blocks that did not move are still stored at their step, none lost. On the PostgreSQL store and
 * on the embedded one.
 */
class ABlockThatCannotMoveAfterItsSinkFailsTheRunTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final int RECORDS = 5_000;

  private static final String LEFT =
      "SELECT COALESCE(SUM(record_count), 0) FROM sluice_batch_block WHERE instance_id = ";

  @TempDir Path dir;

  @Test
  void onPostgresqlTheRunFailsNamingTheMove() throws Exception {
    DB.dropTables();
    try (Storage storage =
        new PostgresStorageFactory()
            .open(
                DB.config(), EmbeddedBatch.VALUES, new SimpleMeterRegistry(), Clock.systemUTC())) {
      DB.execute(
          "CREATE FUNCTION refuse_moves() RETURNS trigger AS $$ BEGIN IF OLD.block_no >= 1000 THEN"
              + " RAISE EXCEPTION 'moves refused from block 1000 on'; END IF; RETURN OLD; END $$"
              + " LANGUAGE plpgsql");
      DB.execute(
          "CREATE TRIGGER refuse_moves BEFORE DELETE ON sluice_batch_block FOR EACH ROW"
              + " EXECUTE FUNCTION refuse_moves()");
      failsKeepingItsBlocks(storage, DB::connect);
    } finally {
      DB.execute("DROP FUNCTION IF EXISTS refuse_moves() CASCADE");
    }
  }

  @Test
  void onSqliteTheRunFailsNamingTheMove() throws Exception {
    try (EmbeddedBatch batch = new EmbeddedBatch(dir)) {
      Connect sqlite = () -> DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("sluice.db"));
      try (Connection c = sqlite.connect();
          Statement s = c.createStatement()) {
        s.execute("PRAGMA busy_timeout = 10000");
        s.execute(
            "CREATE TRIGGER refuse_moves BEFORE DELETE ON sluice_batch_block WHEN OLD.block_no >="
                + " 1000 BEGIN SELECT RAISE(ABORT, 'moves refused from block 1000 on'); END");
      }
      failsKeepingItsBlocks(batch.storage, sqlite);
    }
  }

  private interface Connect {
    Connection connect() throws Exception;
  }

  private static void failsKeepingItsBlocks(Storage storage, Connect store) throws Exception {
    Set<Long> sunk = ConcurrentHashMap.newKeySet();
    Processor sink =
        Processor.of(
            ProcessingType.CPU_LITE,
            m -> {
              for (Object value : (List<?>) m.payload()) {
                sunk.add((Long) value);
              }
              return m;
            });
    BatchJob job =
        BatchJob.builder("moves")
            .input(BatchInput.generator(RECORDS, i -> i))
            .step(
                BatchStep.builder("pass")
                    .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
                    .aggregator(Aggregator.size(250, sink))
                    .build())
            .build();
    try (Application application =
        Application.builder().storage(storage).storedValues(EmbeddedBatch.VALUES).build()) {
      BatchEngine.Execution execution = BatchEngine.of(application).start(job);
      // Before the fix, the run waited for ever for the blocks whose move failed.
      BatchResult result = execution.result().get(30, TimeUnit.SECONDS);

      assertThat(result.state()).isEqualTo(BatchState.FAILED);
      assertThat(result.message())
          .contains("move block")
          .contains("of batch instance " + execution.instance())
          .contains("moves refused from block 1000 on");
      assertThat(result.processed()).isEqualTo(1000);
      assertThat(sunk).hasSizeGreaterThanOrEqualTo(1000);
      try (Connection c = store.connect();
          Statement s = c.createStatement();
          ResultSet left = s.executeQuery(LEFT + execution.instance())) {
        left.next();
        assertThat(left.getLong(1)).isEqualTo(RECORDS - result.processed());
      }
    }
  }
}
