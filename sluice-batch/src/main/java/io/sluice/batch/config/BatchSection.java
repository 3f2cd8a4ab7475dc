package io.sluice.batch.config;

import io.sluice.batch.BatchJob;
import io.sluice.batch.BatchStep;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.SectionComponent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code batch} section: the file's batch jobs; it also checks that each batch-execute names
 * one of them, and its result flow one of the file's flows.
 */
final class BatchSection implements SectionComponent<BatchConfig> {

  @Override
  public String key() {
    return "batch";
  }

  @Override
  public Class<BatchConfig> type() {
    return BatchConfig.class;
  }

  @Override
  public String needsDurableStore() {
    return "cannot keep batch blocks, and batch jobs are declared";
  }

  @Override
  public BatchConfig map(ConfigNode node, MappingContext context) {
    BatchExecutes executes = context.shared(BatchExecutes.class, BatchExecutes::new);
    BatchConfig batch = new BatchMapper(context).map(node.items(), executes.launcher);
    executes.jobNames.forEach(
        (path, job) -> context.problems().knownName(path, job, batch.names(), "batch job"));
    executes.resultFlowNames.forEach(
        (path, flow) -> context.problems().knownName(path, flow, context.flowNames(), "flow"));
    return batch;
  }

  @Override
  public Map<String, Object> defaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("/$defs/batchJob/properties/blockSize", BatchJob.DEFAULT_BLOCK_SIZE);
    d.put("/$defs/batchJob/properties/maxFailedRecords", BatchJob.DEFAULT_MAX_FAILED_RECORDS);
    d.put("/$defs/batchJob/properties/keepFailedRecords", BatchJob.DEFAULT_KEEP_FAILED_RECORDS);
    d.put("/$defs/batchStep/properties/accept", BatchStep.builder("defaults").build().accept());
    d.put("/$defs/batchInput/properties/quiet", BatchMapper.DEFAULT_QUIET);
    return d;
  }
}
