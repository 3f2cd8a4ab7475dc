package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.Message;
import io.sluice.core.serialization.SerializationConfig;
import io.sluice.core.store.ObjectStore;
import io.sluice.core.store.ObjectStoreOptions;
import io.sluice.core.store.Storage;
import io.sluice.core.store.StoredMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link ObjectStore} keeps, to extend once per {@link Storage}: puts, gets,
 * removes and sorted keys; stores of different names partitioned; TTLs measured on the storage's
 * clock; the oldest-written entry evicted from a full store; values that come back equal; 32
 * virtual threads putting at once; and, for a storage that keeps what it wrote, entries that
 * survive closing and opening it again.
 *
 * <p>A subclass gives a new, empty storage ({@link #newStorage}) and, when it keeps anything, the
 * same storage opened again ({@link #reopen}). Time moves only through {@link #clock}.
 */
public abstract class ObjectStoreContractTest extends StorageContract {

  /** How many virtual threads put at once. */
  protected static final int THREADS = 32;

  /** The store {@code name} with the default options. */
  protected ObjectStore store(String name) {
    return storage.objectStore(name, ObjectStoreOptions.DEFAULTS);
  }

  /** A value put is what get returns, and the store says it contains its key. */
  @Test
  public void aPutValueIsWhatGetReturns() {
    ObjectStore store = store("watermarks");

    store.put("orders", "2030-01-01");

    assertThat(store.get("orders")).contains("2030-01-01");
    assertThat(store.contains("orders")).isTrue();
    assertThat(store.get("customers")).isEmpty();
    assertThat(store.contains("customers")).isFalse();
  }

  /** A put under a key that has a value replaces it. */
  @Test
  public void aPutReplacesTheValueUnderItsKey() {
    ObjectStore store = store("watermarks");

    store.put("orders", 1);
    store.put("orders", 2);

    assertThat(store.get("orders")).contains(2);
    assertThat(store.size()).isEqualTo(1);
  }

  /** Remove deletes the value and says whether there was one. */
  @Test
  public void removeDeletesTheValueAndSaysWhetherThereWasOne() {
    ObjectStore store = store("tokens");
    store.put("a", "x");

    assertThat(store.remove("a")).isTrue();
    assertThat(store.get("a")).isEmpty();
    assertThat(store.contains("a")).isFalse();
    assertThat(store.remove("a")).isFalse();
    assertThat(store.size()).isZero();
  }

  /** Keys come back in ascending {@link String} order, whatever order they were put in. */
  @Test
  public void keysAreListedInAscendingOrder() {
    ObjectStore store = store("keys");
    List<String> keys = List.of("b", "a-2", "a-10", "Zebra", "a", "c", "a_1", "émile");
    keys.forEach(key -> store.put(key, key.length()));

    assertThat(store.keys()).containsExactlyElementsOf(keys.stream().sorted().toList());
  }

  /** Size counts the entries; clear removes them all. */
  @Test
  public void sizeCountsTheEntriesAndClearRemovesThemAll() {
    ObjectStore store = store("ids");
    IntStream.range(0, 10).forEach(i -> store.put("id-" + i, i));
    assertThat(store.size()).isEqualTo(10);

    store.clear();

    assertThat(store.size()).isZero();
    assertThat(store.keys()).isEmpty();
    assertThat(store.get("id-3")).isEmpty();
  }

  /**
   * Two stores with different names hold different values under one key; clearing one spares the
   * other.
   */
  @Test
  public void storesWithDifferentNamesArePartitioned() {
    ObjectStore orders = store("orders");
    ObjectStore customers = store("customers");

    orders.put("last", "order-7");
    customers.put("last", "customer-3");
    orders.put("only-in-orders", true);

    assertThat(orders.get("last")).contains("order-7");
    assertThat(customers.get("last")).contains("customer-3");
    assertThat(customers.contains("only-in-orders")).isFalse();
    assertThat(customers.keys()).containsExactly("last");

    orders.clear();

    assertThat(orders.size()).isZero();
    assertThat(customers.get("last")).contains("customer-3");
    assertThat(customers.size()).isEqualTo(1);
  }

  /** Two handles on one store name see each other's writes. */
  @Test
  public void handlesWithTheSameNameShareTheirEntries() {
    ObjectStore one = store("shared");
    ObjectStore two = store("shared");

    one.put("k", "v");
    assertThat(two.get("k")).contains("v");
    two.remove("k");
    assertThat(one.contains("k")).isFalse();
  }

  /** An entry put with the store's TTL is gone, to every read, once it has lived that long. */
  @Test
  public void anEntryExpiresAfterTheStoresTtl() {
    ObjectStore store =
        storage.objectStore(
            "sessions", ObjectStoreOptions.DEFAULTS.withTtl(Duration.ofMinutes(10)));
    store.put("s1", "alice");
    store.put("s2", "bob");
    clock.advance(Duration.ofMinutes(5));
    store.put("s2", "bob again");

    clock.advance(Duration.ofMinutes(5).minusSeconds(1));
    assertThat(store.get("s1")).contains("alice");

    clock.advance(Duration.ofSeconds(2));
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.keys()).containsExactly("s2");
    assertThat(store.get("s1")).isEmpty();
    assertThat(store.contains("s1")).isFalse();
    assertThat(store.remove("s1")).as("an expired entry is not removed again").isFalse();

    clock.advance(Duration.ofMinutes(5));
    assertThat(store.contains("s2")).isFalse();
    assertThat(store("sessions").size()).isZero();
    assertThat(store.keys()).isEmpty();
  }

  /** An entry is live until the very instant its TTL ends, and gone from that instant on. */
  @Test
  public void anEntryIsGoneTheInstantItsTtlEnds() {
    ObjectStore store =
        storage.objectStore("expiring", ObjectStoreOptions.DEFAULTS.withTtl(Duration.ofMinutes(1)));
    store.put("k", "v");
    store.put("longer", "v", Duration.ofMinutes(10));

    clock.advance(Duration.ofMinutes(1).minusMillis(1));
    assertThat(store.contains("k")).isTrue();

    clock.advance(Duration.ofMillis(1));
    assertThat(store.get("k")).isEmpty();
    assertThat(store.contains("k")).isFalse();
    assertThat(store.remove("k")).isFalse();
    assertThat(store.keys()).containsExactly("longer");
    assertThat(store.size()).isEqualTo(1);
  }

  /** A TTL given to put overrides the store's: longer, shorter, or none (for ever). */
  @Test
  public void aTtlGivenToPutOverridesTheStoresTtl() {
    ObjectStore store =
        storage.objectStore("tokens", ObjectStoreOptions.DEFAULTS.withTtl(Duration.ofMinutes(10)));
    store.put("short", 1, Duration.ofMinutes(1));
    store.put("long", 2, Duration.ofHours(1));
    store.put("forever", 3, null);
    store.put("default", 4);

    clock.advance(Duration.ofMinutes(2));
    assertThat(store.keys()).containsExactly("default", "forever", "long");

    clock.advance(Duration.ofMinutes(10));
    assertThat(store.keys()).containsExactly("forever", "long");

    clock.advance(Duration.ofHours(1));
    assertThat(store.keys()).containsExactly("forever");

    clock.advance(Duration.ofDays(365 * 20));
    assertThat(store.get("forever")).contains(3);
  }

  /** Without a TTL, in the store or the put, an entry lives for ever. */
  @Test
  public void anEntryWithoutTtlNeverExpires() {
    ObjectStore store = store("forever");
    store.put("k", "v");

    clock.advance(Duration.ofDays(365 * 50));

    assertThat(store.get("k")).contains("v");
    assertThat(store.size()).isEqualTo(1);
  }

  /**
   * A full store evicts the entry written longest ago when a new key comes; a replace counts as a
   * write. The order is the order of the writes, even when the clock does not move between them.
   */
  @Test
  public void aFullStoreEvictsTheEntryWrittenLongestAgo() {
    ObjectStore store =
        storage.objectStore("bounded", ObjectStoreOptions.DEFAULTS.withMaxEntries(3));
    store.put("a", 1);
    store.put("b", 2);
    store.put("c", 3);
    store.put("a", 10);
    assertThat(store.keys()).as("a replace evicts nothing").containsExactly("a", "b", "c");

    store.put("d", 4);

    assertThat(store.keys()).containsExactly("a", "c", "d");
    assertThat(store.get("a")).contains(10);

    store.put("e", 5);
    assertThat(store.keys()).containsExactly("a", "d", "e");
    assertThat(store.size()).isEqualTo(3);
  }

  /** An expired entry does not count towards a full store: putting a new key evicts no live one. */
  @Test
  public void anExpiredEntryMakesRoomInAFullStore() {
    ObjectStore store =
        storage.objectStore("bounded", ObjectStoreOptions.DEFAULTS.withMaxEntries(2));
    store.put("old", 1);
    store.put("brief", 2, Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(2));

    store.put("new", 3);

    assertThat(store.keys()).containsExactly("new", "old");
  }

  /**
   * Values come back equal to what was put: strings, numbers, nested collections, bytes, messages.
   */
  @Test
  public void valuesRoundTripEqual() {
    ObjectStore store = store("values");
    Map<String, Object> nested =
        Map.of("list", List.of(1, 2, List.of("three")), "map", Map.of("k", List.of("v")));
    StoredMessage message =
        StoredMessage.of(
            Message.of("{\"id\":7}", Map.of("file.name", "orders.json"))
                .withVariable("attempt", 2));
    byte[] bytes = {0, 1, -1, 127, -128};

    store.put("string", "olá, 世界");
    store.put("integer", 42);
    store.put("nested", nested);
    store.put("list", List.of("x", Map.of("y", 1)));
    store.put("bytes", bytes);
    store.put("message", message);

    assertThat(store.get("string")).contains("olá, 世界");
    assertThat(store.get("integer")).contains(42);
    assertThat(store.get("nested")).contains(nested);
    assertThat(store.get("list")).contains(List.of("x", Map.of("y", 1)));
    assertThat(store.get("bytes")).get().isInstanceOf(byte[].class).isEqualTo(bytes);
    assertThat(store.get("message")).contains(message);
    assertThat(((StoredMessage) store.get("message").orElseThrow()).toMessage().variable("attempt"))
        .isEqualTo(2);
  }

  /**
   * A handle that names its own serializer reads what handles of the same store wrote with another
   * ({@link ObjectStoreOptions#serializer()}: values are read with whatever wrote them).
   */
  @Test
  public void aHandleWithItsOwnSerializerReadsWhatOthersWrote() {
    store("tokens").put("k", "by the default serializer");
    ObjectStore named =
        storage.objectStore(
            "tokens", ObjectStoreOptions.DEFAULTS.withSerializer(SerializationConfig.DEFAULT_NAME));

    assertThat(named.get("k")).contains("by the default serializer");
    named.put("j", List.of("by", "the", "named", "one"));
    assertThat(store("tokens").get("j")).contains(List.of("by", "the", "named", "one"));
  }

  /**
   * Null and blank keys, names and TTLs are refused with a message naming them; null values too.
   */
  @Test
  public void nullAndBlankArgumentsAreRejected() {
    ObjectStore store = store("strict");

    assertThatThrownBy(() -> store.put(null, "v"))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("key");
    assertThatThrownBy(() -> store.get(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("key");
    assertThatThrownBy(() -> store.contains(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.remove(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.put(" ", "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key");
    assertThatThrownBy(() -> store.put("k", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("remove");
    assertThatThrownBy(() -> store.put("k", "v", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> store.put("k", "v", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> storage.objectStore(null, ObjectStoreOptions.DEFAULTS))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(() -> storage.objectStore("", ObjectStoreOptions.DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
    assertThat(store.size()).as("nothing refused was written").isZero();
  }

  /** Puts from 32 virtual threads at once, to one store through their own handles, are all kept. */
  @Test
  public void putsFromThirtyTwoVirtualThreadsAreAllVisible() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> puts = new ArrayList<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int t = 0; t < THREADS; t++) {
        String key = "thread-%02d".formatted(t);
        ObjectStore handle = store("concurrent");
        puts.add(
            executor.submit(
                () -> {
                  start.await();
                  handle.put(key, key);
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> put : puts) {
        put.get();
      }
    }

    ObjectStore store = store("concurrent");
    assertThat(store.size()).isEqualTo(THREADS);
    assertThat(store.keys())
        .containsExactlyElementsOf(
            IntStream.range(0, THREADS).mapToObj("thread-%02d"::formatted).toList());
    assertThat(store.get("thread-17")).contains("thread-17");
  }

  /**
   * A storage that keeps what it wrote has its entries, and their TTLs, after it is opened again;
   * an entry whose TTL ended while the storage was closed is gone.
   */
  @Test
  public void entriesAndTheirTtlsSurviveClosingAndReopening() throws Exception {
    store("kept").put("forever", List.of(1, 2, 3));
    store("kept").put("for-an-hour", "soon gone", Duration.ofHours(1));
    store("kept").put("for-a-second", "gone while closed", Duration.ofSeconds(1));
    store("other").put("forever", "other value");

    closeAndReopen(Duration.ofSeconds(1));

    ObjectStore kept = store("kept");
    assertThat(kept.get("forever")).contains(List.of(1, 2, 3));
    assertThat(kept.keys()).containsExactly("for-an-hour", "forever");
    assertThat(store("other").get("forever")).contains("other value");

    clock.advance(Duration.ofHours(1).plusSeconds(1));
    assertThat(kept.keys()).containsExactly("forever");
  }
}
