package io.sluice.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClosingMemoryStorageClosesEveryHandleTest {

  private final MemoryStorage storage = new MemoryStorage(new ManualClock(Instant.EPOCH));

  @Test
  void itSaysItKeepsNothing() {
    assertThat(storage.durable()).isFalse();
    assertThat(storage.describe()).isEqualTo("memory (nothing survives the process)");
  }

  @Test
  void handlesFailOnceTheStorageIsClosed() {
    ObjectStore store = storage.objectStore("s", ObjectStoreOptions.DEFAULTS);
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);
    store.put("k", "v");
    queue.enqueue("m");

    storage.close();

    for (Runnable call :
        List.<Runnable>of(
            () -> store.get("k"),
            () -> store.put("k", "v"),
            store::keys,
            store::clear,
            () -> queue.enqueue("m"),
            () -> queue.take(1),
            queue::size,
            () -> storage.objectStore("s", ObjectStoreOptions.DEFAULTS),
            () -> storage.queue("q", QueueOptions.DEFAULTS))) {
      assertThatThrownBy(call::run)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("storage is closed");
    }
  }

  @Test
  void aWaitingTakeFailsWhenTheStorageCloses() throws Exception {
    DurableQueue queue = storage.queue("q", QueueOptions.DEFAULTS);
    FutureTask<List<Delivery>> take = new FutureTask<>(() -> queue.take(1, Duration.ofMinutes(5)));
    Thread taker = new Thread(take, "waiting-take");
    taker.setDaemon(true);
    taker.start();
    await().until(() -> taker.getState() == Thread.State.TIMED_WAITING);

    storage.close();

    assertThatThrownBy(() -> take.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("storage is closed");
  }
}
