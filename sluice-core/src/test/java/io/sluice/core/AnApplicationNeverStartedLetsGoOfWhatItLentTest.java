package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.app.Application;
import io.sluice.core.flow.Flow;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import io.sluice.core.testing.SluiceThreads;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An application that is never started can still lend its CPU pool (a batch run's steps use it):
 * closing it stops that pool, where it used to leave its threads alive for their idle minute. Once
 * stopped it cannot be started.
 */
class AnApplicationNeverStartedLetsGoOfWhatItLentTest {

  @Test
  void closingAnApplicationNeverStartedStopsTheCpuPoolItLent() throws Exception {
    Application base = Application.builder().build();
    Flow flow =
        Flow.builder("square")
            .processor(
                Processor.of(
                    ProcessingType.CPU_INTENSIVE,
                    m -> m.withPayload(Thread.currentThread().getName())))
            .build();
    try (Application run = Application.builder().cpuPoolOf(base).flow(flow).build()) {
      run.start();
      assertThat((String) run.send("square", Message.of(1)).get(10, TimeUnit.SECONDS).payload())
          .startsWith("sluice-cpu-");
    }

    base.close();

    SluiceThreads.assertNoneAlive("sluice-cpu-");
  }

  @Test
  void anApplicationStoppedBeforeItStartedCannotStart() {
    Application application = Application.builder().build();
    application.close();

    assertThatThrownBy(application::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the application was stopped; build a new one to start");
  }
}
