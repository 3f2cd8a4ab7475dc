package io.sluice.batch.config;

import io.sluice.batch.BatchExecuteProcessor;
import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProcessorComponent;
import io.sluice.core.expression.Template;
import io.sluice.core.spi.Processor;
import java.util.Map;

/**
 * The {@code batch-execute} processor: starts one of the file's batch jobs; the job must be one of
 * the file's, its result flow one of its flows (checked by the {@code batch} section).
 */
final class BatchExecuteComponent implements ProcessorComponent {

  @Override
  public String key() {
    return "batch-execute";
  }

  @Override
  public Map<String, Object> defaults() {
    return Map.of("/properties/target", BatchExecuteProcessor.DEFAULT_TARGET);
  }

  @Override
  public Processor map(ConfigNode node, MappingContext context) {
    BatchExecutes executes = context.shared(BatchExecutes.class, BatchExecutes::new);
    String job = node.text("job", null);
    if (job == null) {
      context.problems().add(node.get("job").path(), null, "is required");
      return null;
    }
    executes.jobNames.put(node.get("job").path(), job);
    String resultFlow = node.text("resultFlow", null);
    if (resultFlow != null) {
      executes.resultFlowNames.put(node.get("resultFlow").path(), resultFlow);
    }
    Template key = node.has("key") ? context.template(node, "key", null) : null;
    if (node.has("key") && key == null) {
      return null;
    }
    return new BatchExecuteProcessor(
        executes.launcher,
        job,
        node.text("target", BatchExecuteProcessor.DEFAULT_TARGET),
        resultFlow,
        key);
  }
}
