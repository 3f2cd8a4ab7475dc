package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.core.app.Application;
import io.sluice.core.app.Operations;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** What an operator reads of a flow beside its counts: its rate and its adaptive limit. */
class OperationsShowAFlowsRateAndLimitTest {

  @Test
  void aFlowsRateAndAdaptiveLimitAreRead() throws Exception {
    Flow auto =
        Flow.builder("auto")
            .processor(
                Processor.of(
                    ProcessingType.BLOCKING_IO,
                    m -> {
                      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                      return m;
                    }))
            .build();
    Flow sync =
        Flow.builder("sync")
            .strategy(new ProcessingStrategy.Synchronous(Profiles.threads(2)))
            .processor(Processor.of(ProcessingType.CPU_LITE, m -> m))
            .build();
    try (Application app = Application.builder().flow(auto).flow(sync).build()) {
      app.start();
      Operations operations = new Operations(app);
      Operations.FlowView first = operations.flow("auto").orElseThrow();
      assertThat(first.rate()).as("no read before: no rate yet").isZero();
      assertThat(first.p50Millis()).as("nothing timed yet").isNull();
      assertThat(first.limit())
          .isEqualTo(
              ((ProcessingStrategy.Auto) ProcessingStrategy.defaultStrategy()).initialLimit());
      assertThat(operations.flow("sync").orElseThrow().limit()).as("not auto").isNull();

      List<CompletableFuture<Message>> sent = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        sent.add(app.send("auto", Message.of(i)));
      }
      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

      // The flow counts a message just after its result is handed back: wait for the counts.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> operations.flow("auto").orElseThrow().completed() == 400);
      Operations.FlowView after = operations.flow("auto").orElseThrow();
      assertThat(after.rate()).as("400 ended since the first read").isPositive();
      // A registry without histogram buckets (this simple one) gives no percentiles; the
      // management port's Prometheus registry does (TheConsoleApiShowsJobsAndBatchesTest).
      assertThat(after.p50Millis()).isNull();
    }
  }
}
