package io.sluice.testkit;

import io.sluice.core.store.Storage;
import io.sluice.core.store.memory.MemoryStorage;
import java.time.Clock;

/** The durable queue contract, run against the in-memory storage. */
class MemoryDurableQueueContractTest extends DurableQueueContractTest {

  @Override
  protected Storage newStorage(Clock clock) {
    return new MemoryStorage(clock);
  }
}
