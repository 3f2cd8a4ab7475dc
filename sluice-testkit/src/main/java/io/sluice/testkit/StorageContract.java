package io.sluice.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.core.store.Storage;
import io.sluice.core.testing.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the storage contract tests ({@link ObjectStoreContractTest}, {@link
 * DurableQueueContractTest}) share: a new storage before each test, on a {@link ManualClock} that
 * moves only when a test moves it, closed after the test; and the same storage opened again, for
 * the tests of what survives a close.
 */
public abstract class StorageContract {

  /** The clock the storage measures TTLs, locks and delays on; tests move it. */
  protected final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T09:00:00Z"));

  /** The storage under test, made before each test and closed after it. */
  protected Storage storage;

  /** A new, empty storage whose stores use this clock. Called before each test. */
  protected abstract Storage newStorage(Clock clock) throws Exception;

  /** The same storage opened again after close(), or null when it keeps nothing (memory). */
  protected Storage reopen(Clock clock) throws Exception {
    return null;
  }

  /** Makes the storage. */
  @BeforeEach
  protected final void openStorage() throws Exception {
    storage = newStorage(clock);
  }

  /** Closes the storage. */
  @AfterEach
  protected final void closeStorage() {
    if (storage != null) {
      storage.close();
    }
  }

  /** Closes the storage and opens it again; skips the test when the storage keeps nothing. */
  protected final void closeAndReopen() throws Exception {
    closeAndReopen(Duration.ZERO);
  }

  /**
   * Closes the storage, moves the clock by {@code whileClosed} and opens it again; skips the test
   * when the storage keeps nothing.
   */
  protected final void closeAndReopen(Duration whileClosed) throws Exception {
    storage.close();
    clock.advance(whileClosed);
    storage = reopen(clock);
    assumeTrue(storage != null, "this storage keeps nothing once closed");
  }
}
