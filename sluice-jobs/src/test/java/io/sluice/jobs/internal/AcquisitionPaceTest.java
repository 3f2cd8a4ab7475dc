package io.sluice.jobs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.jobs.Acquisition;
import io.sluice.jobs.JobExecutorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The backoff level and the idle wait, cycle by cycle, as Camunda 7's acquisition moves them. */
class AcquisitionPaceTest {

  private static final UnaryOperator<Duration> NO_JITTER = wait -> wait;

  private static AcquisitionPace optimistic(int threshold) {
    return new AcquisitionPace(
        JobExecutorConfig.builder()
            .acquisition(Acquisition.OPTIMISTIC)
            .jobsPerCycle(3)
            .maxJobsPerCycle(48)
            .acquisitionBackoff(Duration.ofMillis(50))
            .maxAcquisitionBackoff(Duration.ofMillis(250))
            .acquisitionBackoffDecreaseThreshold(threshold)
            .build(),
        NO_JITTER);
  }

  @Test
  void theBackoffLevelHoldsUntilTheThresholdOfCleanCyclesInARow() {
    AcquisitionPace pace = optimistic(3);

    assertThat(pace.collided()).isEqualTo(Duration.ofMillis(50));
    assertThat(pace.collided()).isEqualTo(Duration.ofMillis(100));
    assertThat(pace.candidates(1000)).isEqualTo(12);
    List<Integer> levels = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      pace.clean();
      levels.add(pace.backoffLevel());
    }

    assertThat(levels).containsExactly(2, 2, 1, 1, 1, 0, 0);
    assertThat(pace.candidates(1000)).isEqualTo(3);
  }

  @Test
  void aCollisionStartsTheCountOfCleanCyclesAgain() {
    AcquisitionPace pace = optimistic(3);
    pace.collided();
    pace.clean();
    pace.clean();

    pace.collided();
    pace.clean();
    pace.clean();

    assertThat(pace.backoffLevel()).isEqualTo(2);
    pace.clean();
    assertThat(pace.backoffLevel()).isEqualTo(1);
  }

  @Test
  void byDefaultAHundredCleanCyclesLowerTheLevelByOneAsInCamunda() {
    AcquisitionPace pace =
        optimistic(JobExecutorConfig.defaults().acquisitionBackoffDecreaseThreshold());
    pace.collided();

    for (int i = 0; i < 99; i++) {
      pace.clean();
    }
    assertThat(pace.backoffLevel()).isEqualTo(1);
    pace.clean();
    assertThat(pace.backoffLevel()).isZero();
  }

  @Test
  void withoutBackoffACollisionIsFollowedAtOnceAndRaisesNothing() {
    AcquisitionPace pace =
        new AcquisitionPace(
            JobExecutorConfig.builder().acquisition(Acquisition.OPTIMISTIC).build(), NO_JITTER);

    assertThat(pace.collided()).isZero();
    assertThat(pace.backoffLevel()).isZero();
    assertThat(pace.candidates(1000)).isEqualTo(3);
  }

  @Test
  void emptyClaimsInARowGrowTheIdleWaitToItsMaximumAndAnyJobFoundStartsItAgain() {
    AcquisitionPace pace =
        new AcquisitionPace(
            JobExecutorConfig.builder()
                .idleWait(Duration.ofSeconds(5))
                .idleWaitFactor(2)
                .maxIdleWait(Duration.ofSeconds(60))
                .build(),
            NO_JITTER);
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pace.found(0);
      waits.add(pace.idleBound().toSeconds());
    }
    assertThat(waits).containsExactly(5L, 10L, 20L, 40L, 60L, 60L);

    pace.found(1);
    assertThat(pace.idleBound())
        .as("a short claim that found one")
        .isEqualTo(Duration.ofSeconds(5));
    pace.found(0);
    assertThat(pace.idleBound()).isEqualTo(Duration.ofSeconds(5));
    pace.found(0);
    assertThat(pace.idleBound()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void withoutAnIdleWaitAShortClaimWaitsTheSafetyPollHoweverManyCameBackEmpty() {
    AcquisitionPace pace =
        new AcquisitionPace(
            JobExecutorConfig.builder().safetyPoll(Duration.ofSeconds(30)).build(), NO_JITTER);
    for (int i = 0; i < 40; i++) {
      pace.found(0);
    }
    assertThat(pace.idleBound()).isEqualTo(Duration.ofSeconds(30));
    assertThat(pace.emptyInARow()).isEqualTo(AcquisitionPace.MAX_LEVEL);
  }
}
