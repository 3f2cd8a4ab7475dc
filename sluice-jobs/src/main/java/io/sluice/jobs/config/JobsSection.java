package io.sluice.jobs.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.SectionComponent;
import io.sluice.jobs.ClaimOrder;
import io.sluice.jobs.JobExecutorConfig;
import io.sluice.jobs.JobStores;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code sluice.jobs} section: the executor node's settings and the job handlers. */
final class JobsSection implements SectionComponent<JobsConfig> {

  @Override
  public String key() {
    return "sluice.jobs";
  }

  @Override
  public Class<JobsConfig> type() {
    return JobsConfig.class;
  }

  @Override
  public String needsDurableStore() {
    return "cannot keep jobs, and sluice.jobs is set";
  }

  @Override
  public JobsConfig map(ConfigNode node, MappingContext context) {
    return new JobsMapper(context.componentLoader(), context.problems())
        .map(node, context.flowNames());
  }

  @Override
  public Map<String, Object> defaults() {
    // A node id given, so that no host name is looked up for the defaults.
    JobExecutorConfig jobs = JobExecutorConfig.builder().nodeId("defaults").build();
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/properties/concurrency", jobs.concurrency());
    d.put("/properties/leaseDuration", jobs.leaseDuration());
    d.put("/properties/heartbeatInterval", jobs.heartbeatInterval());
    d.put("/properties/safetyPoll", jobs.safetyPoll());
    d.put("/properties/retryBackoff", jobs.retryBackoff());
    d.put("/properties/maxRetryBackoff", jobs.maxRetryBackoff());
    d.put("/properties/backoffFactor", jobs.backoffFactor());
    d.put("/properties/depthInterval", jobs.depthInterval());
    d.put("/properties/shutdownTimeout", jobs.shutdownTimeout());
    d.put("/properties/acquisition", jobs.acquisition().key());
    d.put("/properties/jobsPerCycle", jobs.jobsPerCycle());
    d.put("/properties/maxJobsPerCycle", jobs.maxJobsPerCycle());
    d.put("/properties/acquisitionBackoff", jobs.acquisitionBackoff());
    d.put("/properties/maxAcquisitionBackoff", jobs.maxAcquisitionBackoff());
    d.put("/properties/acquisitionBackoffFactor", jobs.acquisitionBackoffFactor());
    d.put(
        "/properties/acquisitionBackoffDecreaseThreshold",
        jobs.acquisitionBackoffDecreaseThreshold());
    d.put("/properties/idleWait", jobs.idleWait());
    d.put("/properties/maxIdleWait", jobs.maxIdleWait());
    d.put("/properties/idleWaitFactor", jobs.idleWaitFactor());
    d.put("/properties/claimOrder", ClaimOrder.PRIORITY.key());
    d.put("/properties/priorityAging", JobStores.DEFAULT_PRIORITY_AGING);
    d.put("/properties/history", JobStores.DEFAULT_HISTORY);
    return d;
  }
}
