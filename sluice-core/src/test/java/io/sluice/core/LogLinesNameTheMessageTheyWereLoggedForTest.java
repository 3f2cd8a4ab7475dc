package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.logging.LogContext;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever thread a processor runs on (the caller's, a stage's, the CPU pool's, a virtual thread),
 * the log context names its flow and message while it runs, and a thread is left as it was found.
 */
class LogLinesNameTheMessageTheyWereLoggedForTest {

  static List<ProcessingStrategy> strategies() {
    return StrategiesCarryMessagesTest.strategies();
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void everyProcessorSeesItsFlowAndMessageAndTheCallerKeepsItsOwn(ProcessingStrategy strategy)
      throws Exception {
    Map<String, Map<String, String>> seen = new ConcurrentHashMap<>();
    Flow flow =
        Flow.builder("orders")
            .strategy(strategy)
            .processor(recording(ProcessingType.CPU_LITE, "lite", seen))
            .processor(recording(ProcessingType.BLOCKING_IO, "io", seen))
            .processor(recording(ProcessingType.CPU_INTENSIVE, "cpu", seen))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      LogContext.Work callers = LogContext.job(7);
      try {
        Message in = Message.of("x", Map.of(LogContext.JOB_ID, "42"));
        app.send("orders", in).get(10, TimeUnit.SECONDS);
        for (String step : List.of("lite", "io", "cpu")) {
          assertThat(seen.get(step))
              .as(step)
              .containsEntry(LogContext.FLOW, "orders")
              .containsEntry(LogContext.MESSAGE_ID, in.id())
              .containsEntry(LogContext.JOB_ID, "42");
        }
        assertThat(LogContext.entries()).isEqualTo(Map.of(LogContext.JOB_ID, "7"));

        Message plain = Message.of("y");
        seen.clear();
        app.send("orders", plain).get(10, TimeUnit.SECONDS);
        assertThat(seen.get("io"))
            .as("a thread that ran the job's message does not lend its job to the next one")
            .containsEntry(LogContext.MESSAGE_ID, plain.id())
            .doesNotContainKey(LogContext.JOB_ID);
      } finally {
        LogContext.leave(callers);
      }
      assertThat(LogContext.entries()).isEmpty();
    }
  }

  private static Processor recording(
      ProcessingType type, String step, Map<String, Map<String, String>> seen) {
    return Processor.of(
        type,
        message -> {
          seen.put(step, LogContext.entries());
          return message;
        });
  }
}
