package io.sluice.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.store.Delivery;
import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.StoreHeldException;
import io.sluice.core.testing.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded SQLite store is owned by one storage at a time; the next owner hands back at once
 * what the last one held locked, where the storage contract only promises it by the lock's expiry.
 */
class SqliteStoreHasOneOwnerTest {

  private final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));

  @TempDir Path dir;

  @Test
  void aSecondOpenWhileTheStoreIsOpenFails() {
    try (JdbcStorage first = TestStorages.sqlite(dir, clock)) {
      assertThatThrownBy(() -> TestStorages.sqlite(dir, clock))
          .isInstanceOf(StoreHeldException.class)
          .hasMessageContaining("is open in another process or storage")
          .satisfies(
              e ->
                  assertThat(e.getMessage())
                      .contains(((StoreHeldException) e).file().toString() + " is open"));
      assertThat(first.queue("still-works", QueueOptions.DEFAULTS).size()).isZero();
    }
  }

  @Test
  void aMessageLockedWhenTheStoreClosedIsDeliveredAgainAtOnceAfterReopening() {
    Delivery locked;
    try (JdbcStorage before = TestStorages.sqlite(dir, clock)) {
      DurableQueue queue = before.queue("orders", QueueOptions.DEFAULTS);
      queue.enqueue("order-1");
      locked = queue.take(1).getFirst();
    }

    try (JdbcStorage after = TestStorages.sqlite(dir, clock)) {
      Delivery again = after.queue("orders", QueueOptions.DEFAULTS).take(1).getFirst();

      assertThat(again.id()).isEqualTo(locked.id());
      assertThat(again.deliveryCount()).isEqualTo(2);
    }
  }
}
