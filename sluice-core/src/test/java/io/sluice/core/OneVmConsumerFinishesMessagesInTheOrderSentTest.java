package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.Storage;
import io.sluice.core.store.memory.MemoryStorage;
import io.sluice.core.vm.VmListenerSource;
import io.sluice.core.vm.VmPersistence;
import io.sluice.core.vm.VmPublishProcessor;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code consumers: 1} keeps FIFO order even when each message takes long: four messages held in a
 * blocking processor (each until the test lets it go, as a 1 s call would hold it), let go in the
 * reverse order, still finish a, b, c, d, one in the flow at a time. Before, the listener handed
 * all four over at once and they finished in whatever order their calls ended (b, c, d, a).
 */
class OneVmConsumerFinishesMessagesInTheOrderSentTest {

  private static final List<String> SENT = List.of("a", "b", "c", "d");

  private final Storage storage = new MemoryStorage(Clock.systemUTC());
  private final Map<String, CountDownLatch> release = new ConcurrentHashMap<>();
  private final List<String> started = new CopyOnWriteArrayList<>();
  private final List<String> finished = new CopyOnWriteArrayList<>();
  private final AtomicInteger inside = new AtomicInteger();
  private final AtomicInteger mostInside = new AtomicInteger();

  /** A call that lasts until the test lets its message go. */
  private final Processor slowCall =
      Processor.of(
          ProcessingType.BLOCKING_IO,
          message -> {
            String name = (String) message.payload();
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            started.add(name);
            try {
              if (!release.get(name).await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let " + name + " go");
              }
            } finally {
              inside.decrementAndGet();
            }
            finished.add(name);
            return message;
          });

  @AfterEach
  void letEverythingGo() {
    release.values().forEach(CountDownLatch::countDown);
    storage.close();
  }

  @Test
  void underAutoMessagesFinishInTheOrderSent() throws Exception {
    run(ProcessingStrategy.defaultStrategy(), null);
  }

  @Test
  void underASynchronousPoolMessagesFinishInTheOrderSent() throws Exception {
    run(new ProcessingStrategy.Synchronous(Profiles.threads(4)), null);
  }

  @Test
  void aPersistentQueuesMessagesFinishInTheOrderSent() throws Exception {
    run(ProcessingStrategy.defaultStrategy(), VmPersistence.DEFAULTS);
  }

  private void run(ProcessingStrategy strategy, VmPersistence persistence) throws Exception {
    SENT.forEach(name -> release.put(name, new CountDownLatch(1)));
    Flow listener =
        Flow.builder("in")
            .source(new VmListenerSource("q", 1, persistence))
            .strategy(strategy)
            .processor(slowCall)
            .build();
    Flow publisher =
        Flow.builder("out")
            .processor(
                new VmPublishProcessor("q", false, Duration.ofSeconds(10), persistence != null))
            .build();
    try (Application app =
        Application.builder().storage(storage).flow(publisher).flow(listener).build()) {
      app.start();
      for (String name : SENT) {
        app.send("out", Message.of(name)).get(10, TimeUnit.SECONDS);
      }
      await().until(() -> started.contains("a"));

      for (String name : SENT.reversed()) {
        release.get(name).countDown();
      }
      await().until(() -> finished.size() == SENT.size());

      assertThat(finished).containsExactlyElementsOf(SENT);
      assertThat(started).containsExactlyElementsOf(SENT);
      assertThat(mostInside).as("messages in the flow at once").hasValue(1);
    }
  }
}
