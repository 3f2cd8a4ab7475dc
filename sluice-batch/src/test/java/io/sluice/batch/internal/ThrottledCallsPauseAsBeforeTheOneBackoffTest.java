package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A throttled call of a record is made again after {@link Dispatch#THROTTLED}'s pause; it is the
 * pause the former formula drew, written out here as it was, with the same random numbers.
 */
class ThrottledCallsPauseAsBeforeTheOneBackoffTest {

  @Test
  void everyRetrysPauseIsTheFormerOneJitterIncluded() {
    Random before = new Random(2026);
    Random after = new Random(2026);
    // A record is called again THROTTLED_RETRIES times at most: retries 0 to 9; then past it.
    for (int retries = 0; retries <= 20; retries++) {
      long pause = Math.min(2_000, 20L << retries);
      assertThat(Dispatch.THROTTLED.delay(retries)).isEqualTo(Duration.ofMillis(pause));
      for (int i = 0; i < 500; i++) {
        long drawn = before.nextLong(pause / 2, pause + 1);
        assertThat(Dispatch.THROTTLED.delay(retries, after).toMillis())
            .as("retry %d", retries)
            .isEqualTo(drawn);
      }
    }
    assertThat(Dispatch.THROTTLED.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(2));
  }
}
