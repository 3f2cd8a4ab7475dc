package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AutoStrategyPlacesEachProcessorByItsProcessingTypeTest {

  private final ThreadRecorder lite = new ThreadRecorder("lite", ProcessingType.CPU_LITE);
  private final ThreadRecorder cpu = new ThreadRecorder("cpu", ProcessingType.CPU_INTENSIVE);
  private final ThreadRecorder afterCpu = new ThreadRecorder("afterCpu", ProcessingType.CPU_LITE);
  private final ThreadRecorder io = new ThreadRecorder("io", ProcessingType.BLOCKING_IO);
  private final ThreadRecorder afterIo = new ThreadRecorder("afterIo", ProcessingType.CPU_LITE);

  private Application start() {
    Flow flow =
        Flow.builder("auto")
            .processor(lite)
            .processor(cpu)
            .processor(afterCpu)
            .processor(io)
            .processor(afterIo)
            .build();
    Application app = Application.builder().flow(flow).build();
    app.start();
    return app;
  }

  @Test
  void cpuLiteRunsOnTheSubmitterCpuIntensiveOnTheCpuPoolBlockingOnAVirtualThread()
      throws Exception {
    try (Application app = start()) {
      Message out = app.send("auto", Message.of("x")).get(10, TimeUnit.SECONDS);
      assertThat(lite.threads()).containsExactly(Thread.currentThread());
      assertThat((String) out.variable("cpu")).matches("sluice-cpu-\\d+");
      assertThat(out.variable("afterCpu"))
          .as("CPU_LITE stays where the message is")
          .isEqualTo(out.variable("cpu"));
      assertThat(io.threads())
          .singleElement()
          .satisfies(t -> assertThat(t.isVirtual()).isTrue())
          .satisfies(t -> assertThat(t.getName()).startsWith("sluice-auto-io-"));
      assertThat(afterIo.threads()).containsExactlyElementsOf(io.threads());
    }
  }

  @Test
  void blockingWorkGetsAVirtualThreadOfItsOwnEvenWhenTheSubmitterIsVirtual() throws Exception {
    try (Application app = start()) {
      AtomicReference<CompletableFuture<Message>> result = new AtomicReference<>();
      Thread submitter =
          Thread.ofVirtual()
              .name("virtual-source")
              .start(() -> result.set(app.send("auto", Message.of("x"))));
      submitter.join(10_000);
      result.get().get(10, TimeUnit.SECONDS);
      assertThat(lite.threads()).containsExactly(submitter);
      assertThat(io.threads())
          .singleElement()
          .satisfies(t -> assertThat(t.isVirtual()).isTrue())
          .isNotSameAs(submitter);
    }
  }
}
