package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the JDBC object store does beyond the test kit's contract (run by {@code
 * *ObjectStoreContractTest}): expired rows are purged, and a store with its own serializer writes
 * with it; for each database (subclasses open the storage).
 */
abstract class ObjectStoreRulesTest {

  protected final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));
  protected JdbcStorage storage;
  private ObjectStore store;

  /** A new, empty storage on {@code clock}. */
  protected abstract JdbcStorage newStorage(ManualClock clock) throws Exception;

  /** The same storage opened again after close. */
  protected abstract JdbcStorage reopen(ManualClock clock) throws Exception;

  @BeforeEach
  void open() throws Exception {
    storage = newStorage(clock);
    store = storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS);
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void expiredEntriesArePurgedByALaterPut() throws Exception {
    store.put("old", "v", Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(2));

    store.put("new", "v");

    long rows =
        storage.read(
            "count rows",
            c -> {
              try (var rs =
                  c.createStatement()
                      .executeQuery(
                          "SELECT COUNT(*) FROM sluice_object_store WHERE store = 'tokens'")) {
                rs.next();
                return rs.getLong(1);
              }
            });
    assertThat(rows).isEqualTo(1);
  }

  @Test
  void aStoreWithItsOwnSerializerWritesWithItAndReadsAnything() {
    store.put("k", "by default");
    ObjectStore jdk =
        storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS.withSerializer("default"));

    assertThat(jdk.get("k")).contains("by default");
  }
}
