package io.sluice.testkit;

import io.sluice.core.store.Storage;
import io.sluice.core.store.memory.MemoryStorage;
import java.time.Clock;

/** The object store contract, run against the in-memory storage. */
class MemoryObjectStoreContractTest extends ObjectStoreContractTest {

  @Override
  protected Storage newStorage(Clock clock) {
    return new MemoryStorage(clock);
  }
}
