package io.sluice.config;

import io.sluice.config.spi.ConfigNode;
import io.sluice.config.spi.MappingContext;
import io.sluice.config.spi.ProblemCollector;
import io.sluice.config.spi.SourceComponent;
import io.sluice.core.ProcessingStrategy;
import io.sluice.core.flow.Flow;
import io.sluice.core.flow.OnError;
import io.sluice.core.spi.Processor;
import io.sluice.core.spi.Source;
import java.util.List;
import java.util.Map;

/** Maps one entry of {@code flows}: its strategy, source, processors, sinks and error handler. */
final class FlowMapper {

  private final ComponentRegistry registry;
  private final MappingContext context;
  private final ProcessorMapper processorMapper;
  private final StrategyMapper strategyMapper;
  private final ProblemCollector problems;

  FlowMapper(
      ComponentRegistry registry,
      MappingContext context,
      ProcessorMapper processorMapper,
      StrategyMapper strategyMapper) {
    this.registry = registry;
    this.context = context;
    this.processorMapper = processorMapper;
    this.strategyMapper = strategyMapper;
    this.problems = context.problems();
  }

  /** The flow, or null when it is broken (its problems recorded). */
  Flow flow(ConfigNode node) {
    String name = node.text("name", null);
    ProcessingStrategy strategy = strategyMapper.strategy(node.get("strategy"));
    Source source = source(node.get("source"));
    List<Processor> processors = processorMapper.processors(node, "processors");
    List<Processor> sinks = processorMapper.processors(node, "sinks");
    List<OnError> errorHandler = processorMapper.errorHandler(node, "errorHandler");
    if (strategy == null) {
      return null;
    }
    Flow.Builder flow = Flow.builder(name).source(source).strategy(strategy);
    processors.forEach(flow::processor);
    sinks.forEach(flow::sink);
    errorHandler.forEach(flow::onError);
    // The builder, which puts what the source asks to run first (its read:) before the processors.
    return problems.attempt(node.path(), flow::build);
  }

  /** The source {@code node} declares (one key naming its kind), or null when broken or absent. */
  Source source(ConfigNode node) {
    if (!node.isPresent()) {
      return null;
    }
    Map.Entry<String, ConfigNode> kind = node.single();
    if (kind == null) {
      return null;
    }
    ConfigNode s = kind.getValue();
    SourceComponent component = registry.sources().get(kind.getKey());
    if (component == null) {
      problems.add(
          s.path(),
          kind.getKey(),
          "is not a source; use "
              + ComponentRegistry.either(List.copyOf(registry.sources().keySet()), " or "));
      return null;
    }
    return component.map(s, context);
  }
}
