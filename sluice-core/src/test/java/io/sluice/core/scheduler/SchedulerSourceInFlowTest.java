package io.sluice.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.Message;
import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The scheduler inside a real application, its timer driven by the test. */
class SchedulerSourceInFlowTest {

  @Test
  void everyFiringReachesTheFlowAtItsScheduledTime() {
    Instant t0 = Instant.parse("2030-06-01T08:00:00Z");
    ManualClock clock = new ManualClock(t0);
    ManualTimerService timer = new ManualTimerService(clock);
    List<Object> seen = new CopyOnWriteArrayList<>();
    Processor record =
        new Processor() {
          @Override
          public Message process(Message message) {
            seen.add(message.attribute("scheduledTime"));
            return message;
          }

          @Override
          public ProcessingType processingType() {
            return ProcessingType.CPU_LITE;
          }
        };
    Flow flow =
        Flow.builder("tick")
            .source(SchedulerSource.fixedFrequency(Duration.ofSeconds(30), Duration.ofSeconds(5)))
            .processor(record)
            .build();

    try (Application app = Application.builder().clock(clock).timer(timer).flow(flow).build()) {
      app.start();
      timer.advance(Duration.ofSeconds(65));
    }

    assertThat(seen).containsExactly(t0.plusSeconds(5), t0.plusSeconds(35), t0.plusSeconds(65));
  }
}
