package io.sluice.testkit;

import io.sluice.core.spi.TimerService;
import io.sluice.core.testing.ManualClock;
import io.sluice.core.testing.ManualTimerService;
import java.time.Duration;
import java.time.Instant;

/** The timer contract, run against the manual timer: what is due runs as the test advances it. */
class ManualTimerServiceContractTest extends TimerServiceContractTest {

  private ManualTimerService manual;

  @Override
  protected TimerService newTimer() {
    manual = new ManualTimerService(new ManualClock(Instant.parse("2030-03-30T23:30:00Z")));
    return manual;
  }

  @Override
  protected void letTimePass(Duration duration) {
    manual.advance(duration);
  }
}
