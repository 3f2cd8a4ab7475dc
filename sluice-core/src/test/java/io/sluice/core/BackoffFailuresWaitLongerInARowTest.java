package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffFailuresWaitLongerInARowTest {

  private final Backoff backoff = Backoff.doubling(Duration.ofMillis(50), Duration.ofMillis(300));

  @Test
  void eachFailureInARowWaitsTheNextDelayUpToTheCap() {
    Backoff.Failures failures = backoff.failures();

    assertThat(failures.next()).isEqualTo(Duration.ofMillis(50));
    assertThat(failures.next()).isEqualTo(Duration.ofMillis(100));
    assertThat(failures.next()).isEqualTo(Duration.ofMillis(200));
    assertThat(failures.next()).isEqualTo(Duration.ofMillis(300));
    assertThat(failures.next()).isEqualTo(Duration.ofMillis(300));
    assertThat(failures.count()).isEqualTo(5);
  }

  @Test
  void aSuccessStartsTheWaitsAgainFromTheFirst() {
    Backoff.Failures failures = backoff.failures();
    failures.next();
    failures.next();

    failures.reset();

    assertThat(failures.count()).isZero();
    assertThat(failures.next()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void everyCallerCountsItsOwnFailures() {
    Backoff.Failures one = backoff.failures();
    Backoff.Failures other = backoff.failures();
    one.next();
    one.next();

    assertThat(other.next()).isEqualTo(Duration.ofMillis(50));
  }
}
