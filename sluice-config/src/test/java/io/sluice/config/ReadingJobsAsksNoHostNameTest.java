package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.config.JobsConfig;
import org.junit.jupiter.api.Test;

/**
 * A file with sluice.jobs and no nodeId is read without asking for the host name, which may wait
 * for DNS for seconds: sluice jobs create and validate never need it; only a node does.
 */
class ReadingJobsAsksNoHostNameTest {

  @Test
  void theDefaultNodeIdIsMadeWhenANodeIsNotWhenTheFileIsRead() {
    int before = CountingResolver.LOCAL_HOST_LOOKUPS.get();

    JobsConfig jobs =
        Configs.read(
                """
                sluice:
                  jobs:
                    concurrency: 4
                    handlers:
                      send: { flow: send }
                flows: [ { name: send } ]
                """)
            .section(JobsConfig.class);

    assertThat(CountingResolver.LOCAL_HOST_LOOKUPS.get()).isEqualTo(before);
    assertThat(jobs.executorConfig().nodeId())
        .isEqualTo(JobExecutorConfig.defaultNodeId())
        .endsWith("-" + ProcessHandle.current().pid());
    assertThat(jobs.executorConfig().concurrency()).isEqualTo(4);
  }
}
