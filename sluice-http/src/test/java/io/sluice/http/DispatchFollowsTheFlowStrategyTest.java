package io.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.ProcessingStrategy;
import io.sluice.core.ThreadingProfile;
import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import org.junit.jupiter.api.Test;

/**
 * One engine, both models: under {@code auto} CPU_LITE work runs on the event loop and blocking
 * work on a virtual thread; under {@code synchronous} a receiver thread of the profile's pool runs
 * it all.
 */
class DispatchFollowsTheFlowStrategyTest {

  private static Processor recordThread(ProcessingType type, String variable) {
    return Processor.of(
        type,
        m ->
            m.withVariable(
                variable,
                (Thread.currentThread().isVirtual() ? "virtual " : "platform ")
                    + Thread.currentThread().getName()));
  }

  private static final Processor ANSWER =
      Processor.of(
          ProcessingType.CPU_LITE, m -> m.withPayload(m.variable("lite") + "|" + m.variable("io")));

  /** The threads the CPU_LITE and the BLOCKING_IO processor ran on, under {@code strategy}. */
  private static String[] threadsUnder(ProcessingStrategy strategy) throws Exception {
    try (Listening http =
        Listening.start(
            Listening.server().build(),
            "/",
            strategy,
            f ->
                f.processor(recordThread(ProcessingType.CPU_LITE, "lite"))
                    .processor(recordThread(ProcessingType.BLOCKING_IO, "io"))
                    .processor(ANSWER))) {
      return http.get("/").body().split("\\|");
    }
  }

  @Test
  void autoRunsCpuLiteOnTheEventLoopAndBlockingWorkOnVirtualThreads() throws Exception {
    String[] threads = threadsUnder(ProcessingStrategy.defaultStrategy());
    assertThat(threads[0]).startsWith("platform sluice-http-");
    assertThat(threads[1]).startsWith("virtual sluice-web-io-");
  }

  @Test
  void synchronousRunsTheWholeFlowOnAReceiverThread() throws Exception {
    String[] threads =
        threadsUnder(
            new ProcessingStrategy.Synchronous(
                ThreadingProfile.builder().maxThreadsActive(2).build()));
    assertThat(threads[0]).startsWith("platform sluice-web-receiver-");
    assertThat(threads[1]).isEqualTo(threads[0]);
  }
}
