package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.testing.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryStorageKeepsValuesAsTheyAreTest {

  private final MemoryStorage storage = new MemoryStorage(new ManualClock(Instant.EPOCH));

  @Test
  void aStoreGivesBackTheVeryObjectPut() {
    List<String> value = new ArrayList<>(List.of("a"));
    ObjectStore store = storage.objectStore("s", ObjectStoreOptions.DEFAULTS);

    store.put("k", value);

    assertThat(store.get("k")).get().isSameAs(value);
  }

  @Test
  void aQueueDeliversTheVeryObjectEnqueued() {
    byte[] payload = {1, 2, 3};
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);

    queue.enqueue(payload);

    assertThat(queue.take(1).getFirst().payload()).isSameAs(payload);
  }

  @Test
  void aHandleWithoutOwnerTakesAsThisHostAndARandomPart() {
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);

    assertThat(queue.owner()).matches(".+-[0-9a-f]{8}");
  }
}
