package io.sluice.testkit;

import static org.awaitility.Awaitility.await;

import io.sluice.core.internal.SystemTimerService;
import io.sluice.core.spi.TimerService;
import java.time.Duration;
import java.time.Instant;

/** The timer contract, run against the real timer in real time, with delays of a few ms. */
class SystemTimerServiceContractTest extends TimerServiceContractTest {

  @Override
  protected TimerService newTimer() {
    return new SystemTimerService();
  }

  @Override
  protected void letTimePass(Duration duration) {
    Instant until = timer.clock().instant().plus(duration);
    await("the clock to pass " + until)
        .atMost(patience())
        .pollInterval(Duration.ofMillis(5))
        .until(() -> !timer.clock().instant().isBefore(until));
  }
}
