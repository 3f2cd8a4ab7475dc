package io.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.core.ConfigProblem;
import io.sluice.core.ConfigurationException;
import io.sluice.core.store.Storage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor's configuration: defaults, every broken rule reported at once, the backoff. */
class JobExecutorConfigTest {

  @Test
  void theDefaultsReclaimALapsedNodesJobsWithinTenSeconds() {
    JobExecutorConfig config = JobExecutorConfig.defaults();

    assertThat(config.leaseDuration().plus(config.heartbeatInterval()))
        .isLessThanOrEqualTo(Duration.ofSeconds(10));
    assertThat(config.prefetch()).isEqualTo(16);
    assertThat(config.claimBatch()).isEqualTo(12);
    assertThat(config.acquisition()).isEqualTo(Acquisition.SKIP_LOCKED);
    assertThat(config.nodeId()).isNotBlank();
  }

  @Test
  void numbersThatWouldOverflowAreRefusedInJavaAsInYaml() {
    assertThatThrownBy(
            () ->
                JobExecutorConfig.builder()
                    .concurrency(Integer.MAX_VALUE)
                    .leaseDuration(Duration.ofDays(99_999_999_999L))
                    .acquisitionBackoffFactor(1e300)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("sluice.jobs.concurrency: value '2147483647' must be at most 10000")
        .hasMessageContaining(
            "sluice.jobs.leaseDuration: value 'PT2399999999976H' must be at most 24h")
        .hasMessageContaining(
            "sluice.jobs.acquisitionBackoffFactor: value '1.0E300' must be from 1 to 100");
  }

  @Test
  void everyBrokenRuleIsReportedAtOnceNamingKeyValueAndRule() {
    assertThatThrownBy(
            () ->
                JobExecutorConfig.builder()
                    .nodeId(" ")
                    .concurrency(0)
                    .prefetch(-1)
                    .leaseDuration(Duration.ofSeconds(2))
                    .heartbeatInterval(Duration.ofSeconds(3))
                    .retryBackoff(Duration.ofSeconds(5))
                    .maxRetryBackoff(Duration.ofSeconds(1))
                    .backoffFactor(0.5)
                    .safetyPoll(Duration.ZERO)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("The configuration has 7 errors:")
        .satisfies(
            e ->
                assertThat(((ConfigurationException) e).problems())
                    .extracting(ConfigProblem::path)
                    .containsExactly(
                        "sluice.jobs.nodeId",
                        "sluice.jobs.concurrency",
                        "sluice.jobs.prefetch",
                        "sluice.jobs.heartbeatInterval",
                        "sluice.jobs.safetyPoll",
                        "sluice.jobs.maxRetryBackoff",
                        "sluice.jobs.backoffFactor"))
        .hasMessageContaining("must be at most half of leaseDuration (PT2S)");
  }

  @Test
  void twoHandlersForOneTypeOrABadTypeAreRefusedAtBuild(@TempDir Path dir) {
    try (Storage storage = JobTestStorages.sqlite(dir, Clock.systemUTC())) {
      JobExecutor.Builder builder =
          JobExecutor.builder(JobTestStorages.jobs(storage))
              .handler("email", job -> {})
              .handler("email", job -> {})
              .handler("e mail", job -> {});
      assertThatThrownBy(builder::build)
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("sluice.jobs.handlers.email")
          .hasMessageContaining("was already set; one handler per job type")
          .hasMessageContaining("job type 'e mail' must be 1 to 200 letters");
    }
  }

  @Test
  void theRetryBackoffGrowsByItsFactorUpToItsMaximum() {
    JobExecutorConfig config =
        JobExecutorConfig.builder()
            .retryBackoff(Duration.ofSeconds(1))
            .backoffFactor(3)
            .maxRetryBackoff(Duration.ofSeconds(20))
            .build();

    assertThat(config.backoff(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.backoff(2)).isEqualTo(Duration.ofSeconds(3));
    assertThat(config.backoff(3)).isEqualTo(Duration.ofSeconds(9));
    assertThat(config.backoff(4)).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.backoff(60)).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void optimisticBackoffGrowsTheWaitAndTheCandidatesPerCycleAsCamundaPublished() {
    // Camunda's "backoff 50/250": 3 jobs per cycle growing to 48, factor 2.
    JobExecutorConfig config =
        JobExecutorConfig.builder()
            .acquisition(Acquisition.of("optimistic"))
            .jobsPerCycle(3)
            .maxJobsPerCycle(48)
            .acquisitionBackoff(Duration.ofMillis(50))
            .maxAcquisitionBackoff(Duration.ofMillis(250))
            .build();

    assertThat(config.backsOff()).isTrue();
    assertThat(config.acquisitionBackoff(1)).isEqualTo(Duration.ofMillis(50));
    assertThat(config.acquisitionBackoff(2)).isEqualTo(Duration.ofMillis(100));
    assertThat(config.acquisitionBackoff(3)).isEqualTo(Duration.ofMillis(200));
    assertThat(config.acquisitionBackoff(4)).isEqualTo(Duration.ofMillis(250));
    assertThat(config.jobsPerCycle(0)).isEqualTo(3);
    assertThat(config.jobsPerCycle(1)).isEqualTo(6);
    assertThat(config.jobsPerCycle(4)).isEqualTo(48);
    assertThat(config.jobsPerCycle(9)).isEqualTo(48);
  }

  @Test
  void withoutBackoffEveryOptimisticCycleTakesTheBaseCount() {
    JobExecutorConfig config =
        JobExecutorConfig.builder()
            .acquisition(Acquisition.OPTIMISTIC)
            .jobsPerCycle(48)
            .maxJobsPerCycle(48)
            .build();

    assertThat(config.backsOff()).isFalse();
    assertThat(config.jobsPerCycle(0)).isEqualTo(48);
    assertThat(config.jobsPerCycle(5)).isEqualTo(48);
  }

  @Test
  void camundasAcquisitionDefaultsHoldWhereTheyFitAndTheIdleWaitIsAnOption() {
    JobExecutorConfig config = JobExecutorConfig.defaults();

    assertThat(config.acquisitionBackoffDecreaseThreshold()).isEqualTo(100);
    assertThat(config.idleWaits()).isFalse();
    assertThat(config.idleWait()).isZero();
    assertThat(config.maxIdleWait()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.idleWaitFactor()).isEqualTo(2.0);
  }

  @Test
  void theIdleWaitGrowsByItsFactorUpToItsMaximumAsCamundasWaitTime() {
    // Camunda 7's defaults: waitTimeInMillis 5000, waitIncreaseFactor 2, maxWait 60000.
    JobExecutorConfig config =
        JobExecutorConfig.builder()
            .idleWait(Duration.ofSeconds(5))
            .idleWaitFactor(2)
            .maxIdleWait(Duration.ofSeconds(60))
            .build();

    assertThat(config.idleWaits()).isTrue();
    assertThat(config.idleWait(0)).as("a claim that found some").isEqualTo(Duration.ofSeconds(5));
    assertThat(config.idleWait(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.idleWait(2)).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.idleWait(4)).isEqualTo(Duration.ofSeconds(40));
    assertThat(config.idleWait(5)).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.idleWait(30)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void brokenIdleWaitAndDecreaseThresholdAreNamedWithTheirValuesAndRules() {
    assertThatThrownBy(
            () ->
                JobExecutorConfig.builder()
                    .acquisitionBackoffDecreaseThreshold(0)
                    .idleWait(Duration.ofSeconds(2))
                    .maxIdleWait(Duration.ofSeconds(1))
                    .idleWaitFactor(0.5)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "sluice.jobs.acquisitionBackoffDecreaseThreshold: value '0' must be at least 1")
        .hasMessageContaining(
            "sluice.jobs.maxIdleWait: value 'PT1S' must be at least idleWait (PT2S)")
        .hasMessageContaining("sluice.jobs.idleWaitFactor: value '0.5' must be from 1 to 100");
    assertThatThrownBy(
            () ->
                JobExecutorConfig.builder()
                    .acquisitionBackoffDecreaseThreshold(1_000_001)
                    .idleWait(Duration.ofNanos(500_000))
                    .maxIdleWait(Duration.ofHours(25))
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(
            "sluice.jobs.acquisitionBackoffDecreaseThreshold: value '1000001' must be at most"
                + " 1000000")
        .hasMessageContaining(
            "sluice.jobs.idleWait: value 'PT0.0005S' must be zero (no idle wait) or a duration of"
                + " at least 1 ms")
        .hasMessageContaining("sluice.jobs.maxIdleWait: value 'PT25H' must be at most 24h");
  }

  @Test
  void brokenAcquisitionSettingsAreNamed() {
    assertThatThrownBy(() -> Acquisition.of("pessimistic"))
        .hasMessage("'pessimistic' is not an acquisition strategy; use skip-locked or optimistic");
    assertThatThrownBy(
            () ->
                JobExecutorConfig.builder()
                    .jobsPerCycle(0)
                    .maxJobsPerCycle(-1)
                    .acquisitionBackoff(Duration.ofMillis(300))
                    .maxAcquisitionBackoff(Duration.ofMillis(100))
                    .acquisitionBackoffFactor(0.5)
                    .build())
        .isInstanceOf(ConfigurationException.class)
        .satisfies(
            e ->
                assertThat(((ConfigurationException) e).problems())
                    .extracting(ConfigProblem::path)
                    .containsExactly(
                        "sluice.jobs.jobsPerCycle",
                        "sluice.jobs.maxJobsPerCycle",
                        "sluice.jobs.maxAcquisitionBackoff",
                        "sluice.jobs.acquisitionBackoffFactor"))
        .hasMessageContaining("must be at least acquisitionBackoff (PT0.3S)");
  }
}
