package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.serialization.spi.RecordFault;
import io.sluice.core.serialization.spi.SerializationException;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An object store entry whose stored bytes cannot be read fails its own get only, naming the key,
 * the store and the fault; the other entries are read, and the entry can be replaced or removed.
 */
class UnreadableObjectStoreEntryTest {

  @TempDir Path dir;
  private JdbcStorage storage;

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aTruncatedEntryFailsItsOwnGetNamingKeyStoreAndFault() {
    storage = TestStorages.sqlite(dir, Clock.systemUTC());
    ObjectStore store = storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS);
    store.put("good", "fine");
    store.put("bad", "soon truncated");
    int changed =
        storage.write(
            "truncate an entry",
            tx -> {
              PreparedStatement update =
                  tx.prepare(
                      "UPDATE sluice_object_store SET value = substr(value, 1, length(value) - 2)"
                          + " WHERE store = 'tokens' AND key = 'bad'");
              return update.executeUpdate();
            });
    assertThat(changed).isEqualTo(1);

    assertThatThrownBy(() -> store.get("bad"))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith("Key 'bad' of object store 'tokens' cannot be read (truncated): ")
        .hasMessageEndingWith("Put a new value under it or remove it")
        .satisfies(
            e -> assertThat(((SerializationException) e).fault()).isEqualTo(RecordFault.TRUNCATED));
    assertThat(store.get("good")).contains("fine");
    assertThat(store.keys()).containsExactlyInAnyOrder("good", "bad");

    store.put("bad", "replaced");
    assertThat(store.get("bad")).contains("replaced");
  }
}
