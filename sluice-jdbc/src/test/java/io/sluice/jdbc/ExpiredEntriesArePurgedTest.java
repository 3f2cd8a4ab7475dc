package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.testing.ManualClock;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An expired entry is not only invisible (the object store contract checks that) but its row is
 * deleted by a later put, so a store of short-lived keys does not grow without end.
 */
class ExpiredEntriesArePurgedTest {

  private final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));

  @TempDir Path dir;

  @Test
  void aLaterPutDeletesTheRowsOfExpiredEntries() {
    try (JdbcStorage storage = TestStorages.sqlite(dir, clock)) {
      ObjectStore store = storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS);
      store.put("old", "v", Duration.ofSeconds(1));
      clock.advance(Duration.ofSeconds(2));

      store.put("new", "v");

      assertThat(rows(storage, "tokens")).isEqualTo(1);
    }
  }

  private static long rows(JdbcStorage storage, String store) {
    return storage.read(
        "count rows",
        c -> {
          try (var select =
              c.prepareStatement("SELECT COUNT(*) FROM sluice_object_store WHERE store = ?")) {
            select.setString(1, store);
            try (ResultSet rs = select.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }
}
