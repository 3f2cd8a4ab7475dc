package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.testing.SluiceThreads;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SynchronousFlowCarriesEachMessageOnOneReceiverThreadTest {

  @Test
  void everyProcessorAndSinkOfOneMessageRunsOnTheSameReceiverThread() throws Exception {
    ThreadRecorder lite = new ThreadRecorder("lite", ProcessingType.CPU_LITE);
    ThreadRecorder cpu = new ThreadRecorder("cpu", ProcessingType.CPU_INTENSIVE);
    ThreadRecorder io = new ThreadRecorder("io", ProcessingType.BLOCKING_IO);
    ThreadRecorder sink = new ThreadRecorder("sink", ProcessingType.BLOCKING_IO);
    Flow flow =
        Flow.builder("sync")
            .strategy(new ProcessingStrategy.Synchronous(Profiles.threads(4)))
            .processor(lite)
            .processor(cpu)
            .processor(io)
            .sink(sink)
            .build();
    try (Application app = Application.builder().flow(flow).build()) {
      app.start();
      for (int i = 0; i < 20; i++) {
        Message out = app.send("sync", Message.of(i)).get(10, TimeUnit.SECONDS);
        assertThat(out.variables().values())
            .as("threads of message %s", i)
            .hasSize(4)
            .allSatisfy(name -> assertThat((String) name).matches("sluice-sync-receiver-\\d+"))
            .containsOnly((Object) out.variable("lite"));
      }
      assertThat(io.threads()).noneMatch(Thread::isVirtual);
      assertThat(app.stop()).isTrue();
    }
    SluiceThreads.assertNoneAlive("sluice-sync-");
  }
}
