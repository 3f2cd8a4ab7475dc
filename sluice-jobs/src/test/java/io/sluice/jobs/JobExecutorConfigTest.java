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
    assertThat(config.prefetch()).isEqualTo(4);
    assertThat(config.nodeId()).isNotBlank();
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
}
