package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The retry backoff, the {@code optimistic} acquisition backoff and the idle wait are {@link
 * io.sluice.core.Backoff}s now; each gives the waits the config's own formula gave, written out
 * here as it was, for the same keys, up to and past the caps.
 */
class JobWaitsGrowAsBeforeTheOneBackoffTest {

  private static final int[] STEPS = {
    -3, 0, 1, 2, 3, 4, 5, 10, 29, 30, 31, 64, 1_000, 10_000, Integer.MAX_VALUE
  };

  /** The former JobExecutorConfig.grown. */
  private static Duration grown(Duration first, double factor, int steps, Duration max) {
    double millis = first.toMillis() * Math.pow(factor, Math.max(0, steps));
    return millis >= max.toMillis() ? max : Duration.ofMillis(Math.round(millis));
  }

  @Test
  void retryWaitsAreTheFormerOnesForEveryFactor() {
    for (double factor : new double[] {1, 1.5, 2, 3, 7.25, JobExecutorConfig.MAX_FACTOR}) {
      JobExecutorConfig config =
          JobExecutorConfig.builder()
              .retryBackoff(Duration.ofMillis(1_234))
              .maxRetryBackoff(Duration.ofMinutes(10).plusNanos(5))
              .backoffFactor(factor)
              .build();
      for (int retry : STEPS) {
        assertThat(config.backoff(retry))
            .as("factor %s, retry %d", factor, retry)
            .isEqualTo(
                grown(Duration.ofMillis(1_234), factor, retry - 1, config.maxRetryBackoff()));
      }
    }
  }

  @Test
  void theDefaultRetryWaitsAreTheFormerOnes() {
    JobExecutorConfig config = JobExecutorConfig.defaults();
    for (int retry : STEPS) {
      assertThat(config.backoff(retry))
          .isEqualTo(grown(config.retryBackoff(), 2.0, retry - 1, config.maxRetryBackoff()));
    }
  }

  @Test
  void acquisitionBackoffWaitsAreTheFormerOnes() {
    for (double factor : new double[] {1, 1.3, 2, JobExecutorConfig.MAX_FACTOR}) {
      JobExecutorConfig config =
          JobExecutorConfig.builder()
              .acquisition(Acquisition.OPTIMISTIC)
              .acquisitionBackoff(Duration.ofMillis(50))
              .maxAcquisitionBackoff(Duration.ofMillis(250))
              .acquisitionBackoffFactor(factor)
              .build();
      for (int level : STEPS) {
        assertThat(config.acquisitionBackoff(level))
            .as("factor %s, level %d", factor, level)
            .isEqualTo(grown(Duration.ofMillis(50), factor, level - 1, Duration.ofMillis(250)));
      }
    }
  }

  @Test
  void idleWaitsAreTheFormerOnesAndZeroStaysZero() {
    for (Duration first :
        new Duration[] {Duration.ZERO, Duration.ofMillis(1), Duration.ofSeconds(5)}) {
      JobExecutorConfig config =
          JobExecutorConfig.builder()
              .idleWait(first)
              .maxIdleWait(Duration.ofSeconds(60))
              .idleWaitFactor(1.5)
              .build();
      for (int empty : STEPS) {
        assertThat(config.idleWait(empty))
            .as("idle wait %s, empty %d", first, empty)
            .isEqualTo(grown(first, 1.5, empty - 1, Duration.ofSeconds(60)));
      }
    }
  }
}
