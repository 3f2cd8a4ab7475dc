package io.sluice.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.core.ExhaustedAction;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.store.StorageConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow that refuses a row because it is full ({@code FlowBusyException}) holds the watermark
 * there without a failure: the row comes again at the next poll, and every row completes once.
 */
class DbPollTakesAFullFlowAsBackpressureTest {

  @TempDir Path dir;

  @Test
  void aRefusedRowIsNoFailureAndComesAgain() throws Exception {
    TestDb db = TestDb.sqlite(dir);
    String table = DbPollHandsEachRowOnceInOrderTest.createTable(db);
    Polled.insert(db, table, "a", 6);
    CountDownLatch gate = new CountDownLatch(1);
    List<Long> completed = new CopyOnWriteArrayList<>();
    Processor slow =
        Processor.of(
            ProcessingType.BLOCKING_IO,
            message -> {
              try {
                gate.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              completed.add(((Number) ((Map<?, ?>) message.payload()).get("id")).longValue());
              return message;
            });
    DbPollSource source = new DbPollSource(db.dataSources(), Polled.byId(table).build());
    Flow flow =
        Flow.builder("orders")
            .source(source)
            .strategy(
                new ProcessingStrategy.Auto(2, ExhaustedAction.REJECT, Duration.ofSeconds(1), 4, 4))
            .processor(slow)
            .build();
    try (Application app =
        Application.builder().storage(StorageConfig.memory()).flow(flow).build()) {
      app.start();
      MeterRegistry meters = app.meterRegistry();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  meters.get("sluice.db.poll.refused").tag("flow", "orders").counter().count()
                      >= 1);
      gate.countDown();
      await().atMost(Duration.ofSeconds(20)).until(() -> source.watermark().equals(6L));

      assertThat(meters.get("sluice.db.poll.failed").tag("flow", "orders").counter().count())
          .isZero();
    }
    assertThat(completed).containsExactlyInAnyOrderElementsOf(Polled.ids(1, 6));
  }
}
