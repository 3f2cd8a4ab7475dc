package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.serialization.StoredValues;
import io.sluice.core.store.Storage;
import io.sluice.jdbc.JdbcAccess;
import io.sluice.jdbc.PostgresStorageFactory;
import io.sluice.testkit.PostgresTestDatabase;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run's look for a stop asked through the store, when the store fails it (here a column gone, as
 * a pool with no free connection under load fails it): the look says no rather than throw, and the
 * next one, once the store answers again, finds the stop. Thrown, the failure was lost on whichever
 * mover or sink thread looked, with the block it carried, and the run waited for ever.
 */
class AStopLookTheStoreFailsIsMadeAgainTest {

  @RegisterExtension static final PostgresTestDatabase DB = new PostgresTestDatabase();

  private static final StoredValues VALUES = StoredValues.create(SerializationConfig.defaults());

  @Test
  void aFailedLookSaysNoAndTheNextFindsTheStop() throws Exception {
    DB.dropTables();
    try (Storage storage =
        new PostgresStorageFactory()
            .open(DB.config(), VALUES, new SimpleMeterRegistry(), Clock.systemUTC())) {
      BlockStore store = new BlockStore(JdbcAccess.of(storage), VALUES);
      long instance = store.create("looks", "def");
      StopPolling polling = new StopPolling(store, instance, "looks", false);
      assertThat(store.requestStop(instance)).isTrue();

      DB.execute("ALTER TABLE sluice_batch_instance RENAME COLUMN stop_requested TO gone");
      try {
        assertThat(polling.requested()).isFalse();
      } finally {
        DB.execute("ALTER TABLE sluice_batch_instance RENAME COLUMN gone TO stop_requested");
      }
      assertThat(polling.requested()).isTrue();
    }
  }
}
