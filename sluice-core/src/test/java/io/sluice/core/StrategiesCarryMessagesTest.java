package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class StrategiesCarryMessagesTest {

  static List<ProcessingStrategy> strategies() {
    ThreadingProfile small = ThreadingProfile.builder().maxThreadsActive(4).maxQueue(100).build();
    return List.of(
        new ProcessingStrategy.Synchronous(small),
        new ProcessingStrategy.Staged(small, small, small),
        ProcessingStrategy.defaultStrategy());
  }

  static Processor typed(ProcessingType type, String suffix) {
    return Processor.of(type, message -> message.withPayload(message.payload() + suffix));
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void everyMessageGoesThroughEveryProcessorInOrder(ProcessingStrategy strategy) throws Exception {
    Flow flow =
        Flow.builder("f")
            .strategy(strategy)
            .processor(typed(ProcessingType.CPU_LITE, "-lite"))
            .processor(typed(ProcessingType.CPU_INTENSIVE, "-cpu"))
            .processor(typed(ProcessingType.BLOCKING_IO, "-io"))
            .sink(typed(ProcessingType.CPU_LITE, "-sink"))
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      List<CompletableFuture<Message>> results =
          IntStream.range(0, 200).mapToObj(i -> app.send("f", Message.of("m" + i))).toList();
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get(10, TimeUnit.SECONDS).payload())
            .isEqualTo("m" + i + "-lite-cpu-io-sink");
      }
    }
  }
}
