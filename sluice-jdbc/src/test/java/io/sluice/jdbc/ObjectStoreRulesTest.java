package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link ObjectStore}'s Javadoc, for each database (subclasses open the storage). */
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
  void aPutValueIsReadBackAndReplaced() {
    store.put("k", List.of(1, 2));
    assertThat(store.get("k")).contains(List.of(1, 2));

    store.put("k", "other");

    assertThat(store.get("k")).contains("other");
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.get("missing")).isEmpty();
  }

  @Test
  void removeSaysWhetherALiveValueWasThere() {
    store.put("k", "v");

    assertThat(store.remove("k")).isTrue();
    assertThat(store.remove("k")).isFalse();
    assertThat(store.contains("k")).isFalse();
  }

  @Test
  void keysAreTheLiveOnesInAscendingOrder() {
    store.put("b", 1);
    store.put("a", 2);
    store.put("C", 3);
    store.put("short", 4, Duration.ofSeconds(5));
    clock.advance(Duration.ofSeconds(5));

    assertThat(store.keys()).containsExactly("C", "a", "b");
    assertThat(store.size()).isEqualTo(3);
  }

  @Test
  void anEntryIsGoneOnceItsTtlHasPassed() {
    ObjectStore expiring =
        storage.objectStore("expiring", ObjectStoreOptions.DEFAULTS.withTtl(Duration.ofMinutes(1)));
    expiring.put("k", "v");
    expiring.put("longer", "v", Duration.ofMinutes(10));
    clock.advance(Duration.ofSeconds(59));
    assertThat(expiring.contains("k")).isTrue();

    clock.advance(Duration.ofSeconds(1));

    assertThat(expiring.get("k")).isEmpty();
    assertThat(expiring.contains("k")).isFalse();
    assertThat(expiring.remove("k")).isFalse();
    assertThat(expiring.keys()).containsExactly("longer");
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
  void aFullStoreEvictsTheEntryWrittenLongestAgo() {
    ObjectStore bounded =
        storage.objectStore("bounded", ObjectStoreOptions.DEFAULTS.withMaxEntries(2));
    bounded.put("first", 1);
    bounded.put("second", 2);
    bounded.put("first", 11);

    bounded.put("third", 3);

    assertThat(bounded.keys()).containsExactly("first", "third");
    bounded.put("third", 33);
    assertThat(bounded.size()).isEqualTo(2);
  }

  @Test
  void storesOfDifferentNamesKeepTheirOwnEntries() {
    ObjectStore other = storage.objectStore("other", ObjectStoreOptions.DEFAULTS);
    store.put("k", "mine");
    other.put("k", "theirs");

    store.clear();

    assertThat(store.get("k")).isEmpty();
    assertThat(other.get("k")).contains("theirs");
  }

  @Test
  void aStoreWithItsOwnSerializerWritesWithItAndReadsAnything() {
    store.put("k", "by default");
    ObjectStore jdk =
        storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS.withSerializer("default"));

    assertThat(jdk.get("k")).contains("by default");
  }

  @Test
  void entriesSurviveReopening() throws Exception {
    store.put("k", "v");
    store.put("gone", "v", Duration.ofSeconds(1));
    storage.close();
    clock.advance(Duration.ofSeconds(1));

    storage = reopen(clock);
    ObjectStore again = storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS);

    assertThat(again.keys()).containsExactly("k");
    assertThat(again.get("k")).contains("v");
  }
}
