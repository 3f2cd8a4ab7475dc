package io.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffGrowsToItsCapTest {

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  @Test
  void theWaitsDoubleFromTheInitialWaitThenStayAtTheCap() {
    Backoff backoff = Backoff.doubling(ms(100), Duration.ofSeconds(5));

    List<Duration> waits = IntStream.range(0, 9).mapToObj(backoff::delay).toList();

    assertThat(waits)
        .containsExactly(
            ms(100), ms(200), ms(400), ms(800), ms(1600), ms(3200), ms(5000), ms(5000), ms(5000));
  }

  @Test
  void aFactorOtherThanTwoGrowsByThatFactorRoundedToMilliseconds() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), 1.5, Duration.ofMinutes(1));

    assertThat(backoff.delay(0)).isEqualTo(ms(1000));
    assertThat(backoff.delay(1)).isEqualTo(ms(1500));
    assertThat(backoff.delay(5)).isEqualTo(ms(7594)); // 7,593.75 rounded
    assertThat(backoff.delay(11)).isEqualTo(Duration.ofMinutes(1)); // 86,497.6: capped
  }

  @Test
  void theCapIsReturnedAsItIsOnceTheWaitReachesIt() {
    Duration cap = Duration.ofMillis(250).plusNanos(1); // sub-millisecond part kept
    Backoff backoff = Backoff.doubling(ms(100), cap);

    assertThat(backoff.delay(1)).isEqualTo(ms(200));
    assertThat(backoff.delay(2)).isEqualTo(cap);
  }

  @Test
  void aFactorOfOneAlwaysWaitsTheInitialWait() {
    Backoff backoff = new Backoff(ms(300), 1, Duration.ofSeconds(5));

    assertThat(IntStream.of(0, 1, 2, 100, 10_000, Integer.MAX_VALUE).mapToObj(backoff::delay))
        .containsOnly(ms(300));
  }

  @Test
  void hugeAttemptNumbersGiveTheCapNeverANegativeOrOverflowedWait() {
    Backoff backoff = new Backoff(ms(20), 100, Duration.ofSeconds(2));

    assertThat(backoff.delay(10_000)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(2));
    assertThat(Backoff.doubling(ms(1), Duration.ofDays(100_000)).delay(Integer.MAX_VALUE))
        .isEqualTo(Duration.ofDays(100_000));
  }

  @Test
  void aNegativeAttemptCountsAsTheFirst() {
    Backoff backoff = Backoff.doubling(ms(100), Duration.ofSeconds(5));

    assertThat(backoff.delay(-1)).isEqualTo(ms(100));
    assertThat(backoff.delay(Integer.MIN_VALUE)).isEqualTo(ms(100));
  }

  @Test
  void aZeroInitialWaitStaysZero() {
    Backoff backoff = Backoff.doubling(Duration.ZERO, ms(250));

    assertThat(backoff.delay(0)).isZero();
    assertThat(backoff.delay(Integer.MAX_VALUE)).isZero();
  }

  @Test
  void halfToFullJitterStaysBetweenHalfTheWaitAndAllOfIt() {
    Backoff backoff = Backoff.doubling(ms(20), ms(2000)).withJitter(Backoff.Jitter.HALF_TO_FULL);
    Random random = new Random(42);

    for (int attempt = 0; attempt < 12; attempt++) {
      long full = backoff.delay(attempt).toMillis();
      List<Long> drawn = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        drawn.add(backoff.delay(attempt, random).toMillis());
      }
      assertThat(drawn).allSatisfy(d -> assertThat(d).isBetween(full / 2, full));
      if (full <= 40) {
        assertThat(drawn).contains(full / 2, full); // both ends are reached
      }
    }
  }

  @Test
  void spreadJitterStaysWithinItsFractionAndAtLeastOneMillisecond() {
    Backoff backoff = Backoff.doubling(ms(100), ms(250)).withJitter(Backoff.Jitter.spread(0.2));
    Random random = new Random(7);

    for (int i = 0; i < 5_000; i++) {
      assertThat(backoff.delay(0, random).toMillis()).isBetween(80L, 120L);
      assertThat(backoff.delay(Integer.MAX_VALUE, random).toMillis()).isBetween(200L, 300L);
    }
    Backoff tiny = Backoff.doubling(Duration.ZERO, ms(1)).withJitter(Backoff.Jitter.spread(0.2));
    assertThat(tiny.delay(0, random)).isEqualTo(ms(1));
  }

  @Test
  void theSameRandomGivesTheSameJitteredWaits() {
    Backoff backoff = Backoff.doubling(ms(20), ms(2000)).withJitter(Backoff.Jitter.HALF_TO_FULL);
    Random a = new Random(3);
    Random b = new Random(3);

    for (int attempt = 0; attempt < 20; attempt++) {
      assertThat(backoff.delay(attempt, a)).isEqualTo(backoff.delay(attempt, b));
    }
  }

  @Test
  void withoutJitterTheRandomIsNotUsed() {
    Backoff backoff = Backoff.doubling(ms(100), Duration.ofSeconds(5));

    assertThat(backoff.delay(3, new Random(1))).isEqualTo(ms(800));
  }

  @Test
  void badSettingsAreRefusedNamingTheValue() {
    assertThatThrownBy(() -> new Backoff(ms(-1), 2, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-0.001S");
    assertThatThrownBy(() -> new Backoff(ms(1), 0.5, ms(10)))
        .hasMessageContaining("factor must be 1 or more, was 0.5");
    assertThatThrownBy(() -> new Backoff(ms(1), Double.NaN, ms(10))).hasMessageContaining("NaN");
    assertThatThrownBy(() -> new Backoff(ms(1), Double.POSITIVE_INFINITY, ms(10)))
        .hasMessageContaining("Infinity");
    assertThatThrownBy(() -> Backoff.Jitter.spread(1)).hasMessageContaining("was 1.0");
  }
}
